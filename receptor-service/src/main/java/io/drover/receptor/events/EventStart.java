package io.drover.receptor.events;

import io.drover.model.messaging.EventPosition;
import io.drover.model.read.LifecycleEventRows;
import io.drover.receptor.web.ApiError;
import io.drover.receptor.web.ApiException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * Where a stream starts (SPEC 18): after the event a reconnecting client names ({@code Last-Event-ID}, which a
 * browser's {@code EventSource} sends by itself, or {@code ?after=}), with the events of the last
 * {@code since_seconds}, with the last {@code last} events, or at the end (events from now on). A named event must still be kept and within the
 * retention, or the client has missed events it can no longer get: 410 {@code EventsExpired}, re-list.
 */
@Component
class EventStart {

    static final int MOST_LAST = 1_000;

    private final LifecycleEventRows rows;
    private final Clock clock;
    private final Duration retention;

    EventStart(LifecycleEventRows rows, Clock clock, EventsProperties properties) {
        this.rows = rows;
        this.clock = clock;
        this.retention = properties.retention();
    }

    /** The position the stream starts after; the header wins over the query (a reconnecting browser sends both). */
    EventPosition of(String lastEventId, String after, String sinceSeconds, String last) {
        List<String> given = new ArrayList<>();
        if (after != null) {
            given.add("after");
        }
        if (sinceSeconds != null) {
            given.add("since_seconds");
        }
        if (last != null) {
            given.add("last");
        }
        if (given.size() > 1) {
            throw invalid("give at most one of after, since_seconds and last, not " + String.join(" and ", given));
        }
        if (lastEventId != null && !lastEventId.isBlank()) {
            return resume(lastEventId.strip(), "Last-Event-ID");
        }
        if (after != null) {
            return resume(after, "after");
        }
        if (sinceSeconds != null) {
            long seconds = number(sinceSeconds, "since_seconds", 1, retention.toSeconds());
            return rows.since(clock.instant().minusSeconds(seconds));
        }
        if (last != null) {
            return rows.beforeLast((int) number(last, "last", 1, MOST_LAST));
        }
        return rows.end();
    }

    private EventPosition resume(String id, String name) {
        EventPosition position = EventPosition.parse(id).orElseThrow(() -> invalid(name + " '" + shown(id)
                + "' is not an event id of this API (ids look like 00000000000002ed-0000000000003039)"));
        Optional<Instant> written = rows.writtenAt(position);
        if (written.isEmpty() || written.get().isBefore(clock.instant().minus(retention))) {
            throw new ApiException(HttpStatus.GONE, ApiError.EVENTS_EXPIRED, "the events after " + id
                    + " are no longer kept (a stream resumes within " + retention.toHours() + " h): re-list "
                    + "(GET /v1/desired_lrps, /v1/actual_lrps, /v1/tasks), then open GET /v1/events without "
                    + "Last-Event-ID or after");
        }
        return position;
    }

    private static long number(String text, String name, long min, long max) {
        try {
            long value = Long.parseLong(text.strip());
            if (value >= min && value <= max) {
                return value;
            }
        } catch (NumberFormatException e) {
            // said below
        }
        throw invalid(name + " must be a whole number from " + min + " to " + max + ", not '" + shown(text) + "'");
    }

    private static String shown(String text) {
        return text.length() > 64 ? text.substring(0, 64) + "..." : text;
    }

    private static ApiException invalid(String message) {
        return ApiException.badRequest(ApiError.INVALID_REQUEST, message);
    }
}
