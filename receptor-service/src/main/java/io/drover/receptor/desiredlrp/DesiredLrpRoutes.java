package io.drover.receptor.desiredlrp;

import io.drover.receptor.web.FastReads;
import org.springframework.stereotype.Component;

/** {@code GET /v1/desired_lrps/{guid}} on the fast path. */
@Component
class DesiredLrpRoutes implements FastReads.Route {

    private static final String PREFIX = "/v1/desired_lrps/";

    private final FastReads.Match get;

    DesiredLrpRoutes(DesiredLrpController controller) {
        this.get = new FastReads.Match(PREFIX + "{processGuid}", new FastReads.Handler(controller, "get",
                (request, response) -> controller.get(FastReads.guidBetween(request.getRequestURI(), PREFIX, ""),
                        request, response)));
    }

    @Override
    public FastReads.Match match(String path) {
        return FastReads.guidBetween(path, PREFIX, "") == null ? null : get;
    }
}
