package io.drover.receptor.events;

import io.drover.receptor.web.ApiError;
import io.drover.receptor.web.ApiException;
import io.swagger.v3.oas.annotations.Operation;
import io.swagger.v3.oas.annotations.tags.Tag;
import java.time.Duration;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.http.HttpStatus;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;
import org.springframework.web.servlet.mvc.method.annotation.SseEmitter;

/** {@code GET /v1/events}: the live stream of desired and actual LRP changes (SPEC 5.6). */
@RestController
@EnableConfigurationProperties(EventsProperties.class)
@Tag(name = "events", description = "Server-sent events of every desired and actual LRP change")
class EventController {

    /** How long a client waits for the feed to read live; a broker that does not answer in time does not stop it. */
    private static final Duration LIVE_WAIT = Duration.ofSeconds(5);

    private final EventStream stream;
    private final LifecycleEventFeed feed;

    EventController(EventStream stream, LifecycleEventFeed feed) {
        this.stream = stream;
        this.feed = feed;
    }

    @GetMapping(path = "/v1/events", produces = { MediaType.TEXT_EVENT_STREAM_VALUE, MediaType.ALL_VALUE })
    @Operation(summary = "Stream events", description = "Events desired_lrp_created/changed/removed and "
            + "actual_lrp_created/changed/removed/crashed, each with an increasing id; heartbeat comments keep the "
            + "stream open. A client that cannot keep up is disconnected and should reconnect.")
    SseEmitter events() {
        SseEmitter emitter = stream.connect();
        if (emitter == null) {
            throw new ApiException(HttpStatus.TOO_MANY_REQUESTS, ApiError.INVALID_REQUEST,
                    "too many event stream clients on this receptor; retry later or use another receptor");
        }
        feed.awaitLive(LIVE_WAIT);
        return emitter;
    }
}
