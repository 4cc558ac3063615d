package io.drover.converger.pass;

import io.drover.model.messaging.ConvergenceRequested;
import io.drover.model.messaging.TopicReader;
import io.drover.model.messaging.Topics;
import java.time.Duration;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.springframework.context.SmartLifecycle;
import org.springframework.kafka.core.ConsumerFactory;

/**
 * Hears the lifecycle's {@link ConvergenceRequested} (a desired LRP changed or removed, an instance removed whose index
 * may still be desired) and asks the loop for a pass. Every converger (leader or standby) reads the topic live from the
 * end, with nothing committed: a missed request only delays convergence to the next periodic pass, so nothing here
 * needs to be durable. Any record asks; what it names is only for the reader of the topic.
 *
 * <p>It used to read the lifecycle events and pick these changes out by their type header: every event of the cluster
 * fetched (about three per instance started, 310,000 in the benchmark's P1) for none that asked while instances start.
 */
class ConvergenceRequestListener implements SmartLifecycle {

    private final Runnable passWanted;
    private final TopicReader reader;
    private volatile boolean running;

    /** {@code passWanted} is told of every poll that brought requests ({@link ConvergenceLoop#desiredLrpChanged}). */
    ConvergenceRequestListener(ConsumerFactory<?, ?> consumers, Runnable passWanted) {
        this.passWanted = passWanted;
        this.reader = new TopicReader(consumers, new TopicReader.Settings("converger-convergence-requests", null,
                TopicReader.StartAt.LATEST, null, 500, Duration.ofMillis(500), 0),
                TopicReader.allOf(Topics.CONVERGENCE_REQUESTS), this::onRequests, TopicReader.AfterPoll.NOTHING);
    }

    void onRequests(List<ConsumerRecord<String, byte[]>> records) {
        if (!records.isEmpty()) {
            passWanted.run();
        }
    }

    /** Whether the listener is positioned at the end of the topic: requests written from now on are heard. */
    boolean isReady() {
        return reader.positioned();
    }

    @Override
    public void start() {
        running = true;
        reader.start();
    }

    @Override
    public void stop() {
        running = false;
        reader.close();
    }

    @Override
    public boolean isRunning() {
        return running;
    }
}
