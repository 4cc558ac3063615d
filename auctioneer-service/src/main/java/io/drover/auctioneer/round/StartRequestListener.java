package io.drover.auctioneer.round;

import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.kafka.listener.BatchMessageListener;

/**
 * Each poll is one round: everything queued (up to the round size), with no waiting window; its tasks go last. The container commits the
 * offsets after this returns, so after the database commit; a redelivered request finds its instances placed and
 * skips them.
 */
class StartRequestListener implements BatchMessageListener<String, String> {

    private final AuctionRound round;
    private final TaskAuction tasks;

    StartRequestListener(AuctionRound round, TaskAuction tasks) {
        this.round = round;
        this.tasks = tasks;
    }

    /** The round's LRP instances first, then its tasks on what the instances left. */
    @Override
    public void onMessage(List<ConsumerRecord<String, String>> records) {
        round.run(StartRequests.keys(records));
        tasks.run(StartRequests.taskGuids(records));
    }
}
