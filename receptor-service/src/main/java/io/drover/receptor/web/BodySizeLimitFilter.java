package io.drover.receptor.web;

import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.filter.OncePerRequestFilter;
import tools.jackson.databind.json.JsonMapper;

/**
 * Turns away a declared body over the limit before anything reads it (413). Bodies without a Content-Length are
 * capped while they are read ({@link JsonBodies}).
 */
@Component
@Order(Ordered.HIGHEST_PRECEDENCE)
class BodySizeLimitFilter extends OncePerRequestFilter {

    private static final JsonMapper MAPPER = JsonMapper.builder().build();

    private final int maxBytes;

    BodySizeLimitFilter(@Value("${drover.receptor.max-body-bytes:1048576}") int maxBytes) {
        this.maxBytes = maxBytes;
    }

    @Override
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain)
            throws ServletException, IOException {
        if (request.getContentLengthLong() > maxBytes) {
            ApiException tooLarge = JsonBodies.tooLarge(maxBytes);
            response.setStatus(tooLarge.status().value());
            response.setContentType(MediaType.APPLICATION_JSON_VALUE);
            response.setHeader("Connection", "close");
            MAPPER.writeValue(response.getOutputStream(), tooLarge.error());
            return;
        }
        chain.doFilter(request, response);
    }
}
