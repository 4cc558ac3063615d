package io.drover.receptor.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import java.io.OutputStream;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import tools.jackson.core.JsonGenerator;
import tools.jackson.core.ObjectWriteContext;
import tools.jackson.core.StreamWriteFeature;
import tools.jackson.core.json.JsonFactory;

/**
 * Reads answered straight from rows to bytes: a JSON generator on the response's own stream (no tree, no entity, no
 * message converter), and the conditional-read check that answers 304 Not Modified before anything is read or
 * written. The generator neither flushes nor closes the servlet stream, so a small answer leaves in one piece with a
 * Content-Length and a large one streams out in chunks as the container's buffer fills.
 */
public final class JsonResponses {

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .disable(StreamWriteFeature.AUTO_CLOSE_TARGET)
            .disable(StreamWriteFeature.FLUSH_PASSED_TO_STREAM)
            .build();

    private JsonResponses() {
    }

    /**
     * Answers 304 (with the tag) when the request's {@code If-None-Match} names {@code etag}; returns whether it did.
     */
    public static boolean notModified(HttpServletRequest request, HttpServletResponse response, String etag) {
        if (!EntityTags.matches(request.getHeader(HttpHeaders.IF_NONE_MATCH), etag)) {
            return false;
        }
        response.setStatus(HttpServletResponse.SC_NOT_MODIFIED);
        response.setHeader(HttpHeaders.ETAG, etag);
        return true;
    }

    /** Starts a 200 JSON answer carrying {@code etag} (none when null) and returns a generator writing its body. */
    public static JsonGenerator ok(HttpServletResponse response, String etag) throws IOException {
        response.setStatus(HttpServletResponse.SC_OK);
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        if (etag != null) {
            response.setHeader(HttpHeaders.ETAG, etag);
        }
        return generator(response.getOutputStream());
    }

    public static JsonGenerator generator(OutputStream out) {
        return FACTORY.createGenerator(ObjectWriteContext.empty(), out);
    }
}
