package io.drover.receptor.events;

import io.drover.model.json.Json;
import io.drover.model.messaging.EventPosition;
import io.drover.model.messaging.LifecycleEvent;
import io.drover.model.read.LifecycleEventRow;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.MediaType;
import org.springframework.web.servlet.mvc.method.annotation.ResponseBodyEmitter.DataWithMediaType;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/**
 * One frame of a stream, ready to write: an event with its place in the stream ({@code position}, its SSE id) and the
 * place of the event the tail published before it ({@code previous}; no event a client could be sent lies between
 * the two), a comment (no positions), or the mark the tail publishes where it starts (a position, nothing to write):
 * its events follow that position, and a client that has not got that far reads up to it from PostgreSQL.
 */
record EventFrame(EventPosition previous, EventPosition position, Set<DataWithMediaType> data) {

    private static final Logger log = LoggerFactory.getLogger(EventFrame.class);

    static EventFrame comment(String text) {
        return new EventFrame(null, null, SseEmitter.event().comment(text).build());
    }

    static EventFrame mark(EventPosition start) {
        return new EventFrame(start, start, null);
    }

    /** The frame of a row, or null for one this version does not stream (an unknown type, a payload it cannot read). */
    static EventFrame of(EventPosition previous, LifecycleEventRow row) {
        try {
            String data = SseEvents.data(Json.read(row.payload(), LifecycleEvent.class));
            return data == null ? null : new EventFrame(previous, row.position(), SseEmitter.event()
                    .id(row.position().text()).name(row.type()).data(data, MediaType.APPLICATION_JSON).build());
        } catch (RuntimeException e) {
            log.warn("lifecycle-event-skipped position={} type={} error={}", row.position(), row.type(), e.toString());
            return null;
        }
    }

    boolean isEvent() {
        return position != null && data != null;
    }
}
