package io.drover.receptor.logs;

import io.drover.receptor.web.ApiError;
import io.drover.receptor.web.ApiException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Set;

/**
 * The query of a log request, checked: {@code tail} lines (0 to 100,000; 100 by default), {@code follow} (true or
 * false) and {@code stream} (stdout, stderr or rep; every source without it). Anything else is a 400 naming it.
 */
record LogQuery(int tail, boolean follow, String stream) {

    static final int DEFAULT_TAIL = 100;
    static final int MAX_TAIL = 100_000;
    private static final Set<String> STREAMS = Set.of("stdout", "stderr", "rep");

    static LogQuery of(String tail, String follow, String stream) {
        return new LogQuery(tail(tail), follow(follow), stream(stream));
    }

    /** The same query for the cell's log server. */
    String toQueryString() {
        return "tail=" + tail + "&follow=" + follow
                + (stream == null ? "" : "&stream=" + URLEncoder.encode(stream, StandardCharsets.UTF_8));
    }

    private static int tail(String value) {
        if (value == null) {
            return DEFAULT_TAIL;
        }
        try {
            int tail = Integer.parseInt(value.trim());
            if (tail >= 0 && tail <= MAX_TAIL) {
                return tail;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw invalid("tail must be a number of lines from 0 to " + MAX_TAIL);
    }

    private static boolean follow(String value) {
        return flag("follow", value);
    }

    /** A true/false parameter, false when absent; anything else is a 400 naming it. */
    static boolean flag(String name, String value) {
        if (value == null || value.equals("false")) {
            return false;
        }
        if (value.equals("true")) {
            return true;
        }
        throw invalid(name + " must be true or false");
    }

    private static String stream(String value) {
        if (value == null || STREAMS.contains(value)) {
            return value;
        }
        throw invalid("stream must be stdout, stderr or rep");
    }

    private static ApiException invalid(String message) {
        return ApiException.badRequest(ApiError.INVALID_REQUEST, message);
    }
}
