package io.drover.receptor.events;

import io.drover.model.messaging.EventPosition;
import io.drover.model.read.LifecycleEventRows;
import java.util.ArrayList;
import java.util.List;
import org.springframework.stereotype.Component;

/** Events after a position read from PostgreSQL as frames, a batch at a time: how a client catches up. */
@Component
class EventReplay {

    private final LifecycleEventRows rows;
    private final int batchSize;

    EventReplay(LifecycleEventRows rows, EventsProperties properties) {
        this.rows = rows;
        this.batchSize = properties.batchSize();
    }

    /** The settled events after {@code position} (one batch): their frames, where the batch ends, whether more wait. */
    Batch after(EventPosition position) {
        LifecycleEventRows.Page page = rows.after(position, batchSize);
        List<EventFrame> frames = new ArrayList<>(page.rows().size());
        EventPosition previous = position;
        for (var row : page.rows()) {
            EventFrame frame = EventFrame.of(previous, row);
            if (frame != null) {
                frames.add(frame);
                previous = row.position();
            }
        }
        return new Batch(frames, page.end(position), page.rows().size() == batchSize);
    }

    /** One read: the frames, the position after it (skipped rows included), and whether a full batch came. */
    record Batch(List<EventFrame> frames, EventPosition end, boolean full) {
    }
}
