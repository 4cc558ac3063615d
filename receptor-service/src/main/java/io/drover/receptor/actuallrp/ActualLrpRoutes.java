package io.drover.receptor.actuallrp;

import io.drover.receptor.web.FastReads;
import org.springframework.stereotype.Component;

/** {@code GET /v1/actual_lrps/{guid}} and {@code GET /v1/actual_lrps/{guid}/index/{index}} on the fast path. */
@Component
class ActualLrpRoutes implements FastReads.Route {

    private static final String PREFIX = "/v1/actual_lrps/";
    private static final String INDEX = "/index/";

    private final FastReads.Match byProcessGuid;
    private final FastReads.Match byIndex;

    ActualLrpRoutes(ActualLrpController controller) {
        this.byProcessGuid = new FastReads.Match(PREFIX + "{processGuid}", new FastReads.Handler(controller,
                "byProcessGuid", (request, response) -> controller.byProcessGuid(
                        FastReads.guidBetween(request.getRequestURI(), PREFIX, ""), request, response)));
        this.byIndex = new FastReads.Match(PREFIX + "{processGuid}/index/{index}", new FastReads.Handler(controller,
                "byIndex", (request, response) -> {
                    String path = request.getRequestURI();
                    int at = path.indexOf(INDEX, PREFIX.length());
                    controller.byIndex(path.substring(PREFIX.length(), at), index(path.substring(at + INDEX.length())),
                            request, response);
                }));
    }

    @Override
    public FastReads.Match match(String path) {
        if (FastReads.guidBetween(path, PREFIX, "") != null) {
            return byProcessGuid;
        }
        int at = path.indexOf(INDEX, PREFIX.length());
        if (at < 0 || !path.startsWith(PREFIX)) {
            return null;
        }
        boolean shaped = FastReads.guidBetween(path.substring(0, at), PREFIX, "") != null
                && index(path.substring(at + INDEX.length())) >= 0;
        return shaped ? byIndex : null;
    }

    /** A plain decimal index of up to 9 digits, or -1 (anything else is for the general path to answer). */
    private static int index(String text) {
        if (text.isEmpty() || text.length() > 9) {
            return -1;
        }
        for (int i = 0; i < text.length(); i++) {
            if (text.charAt(i) < '0' || text.charAt(i) > '9') {
                return -1;
            }
        }
        return Integer.parseInt(text);
    }
}
