package io.drover.receptor.events;

import io.drover.model.messaging.EventPosition;
import io.drover.receptor.web.ApiError;
import io.drover.receptor.web.ApiException;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.Parameter;
import io.swagger.v3.oas.annotations.tags.Tag;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestHeader;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/** {@code GET /v1/events}: the stream of desired LRP, actual LRP, task and deployment changes (SPEC 5.6, 18). */
@RestController
@EnableConfigurationProperties(EventsProperties.class)
@Tag(name = "events", description = "Server-sent events of every desired and actual LRP, task and deployment change")
class EventController {

    private final EventStream stream;
    private final EventStart start;

    EventController(EventStream stream, EventStart start) {
        this.stream = stream;
        this.start = start;
    }

    @GetMapping(path = "/v1/events", produces = { MediaType.TEXT_EVENT_STREAM_VALUE, MediaType.ALL_VALUE })
    @Operation(summary = "Stream events", description = "Events desired_lrp_created/changed/removed, "
            + "actual_lrp_created/changed/removed/crashed, task_created/changed/removed and deployment_changed. Each "
            + "id is the event's place in the cluster's one order (the same on every receptor): reconnect with "
            + "Last-Event-ID (or ?after=ID) to get exactly the events after it, then the live stream; 410 "
            + "EventsExpired when that id is older than the retention (re-list). Heartbeat comments keep the stream "
            + "open.")
    SseEmitter events(@RequestHeader(name = "Last-Event-ID", required = false) String lastEventId,
            @Parameter(description = "resume after this event id") @RequestParam(required = false) String after,
            @Parameter(description = "start with the events of the last N seconds (at most the retention)")
            @RequestParam(name = "since_seconds", required = false) String sinceSeconds,
            @Parameter(description = "start with the last N events (1..1000)")
            @RequestParam(required = false) String last) {
        EventPosition from = start.of(lastEventId, after, sinceSeconds, last);
        SseEmitter emitter = stream.connect(from);
        if (emitter == null) {
            throw new ApiException(HttpStatus.TOO_MANY_REQUESTS, ApiError.INVALID_REQUEST,
                    "too many event stream clients on this receptor; retry later or use another receptor");
        }
        return emitter;
    }
}
