package io.drover.receptor.web.security;

import io.drover.receptor.web.ApiError;
import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.io.IOException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.http.HttpHeaders;

/** Refuses, with 403 in the API's error shape, the writes {@link CrossSiteWrites} says a browser must not make. */
final class CrossSiteWritesFilter implements Filter {

    private static final Logger log = LoggerFactory.getLogger(CrossSiteWritesFilter.class);

    private final CrossSiteWrites rule;

    CrossSiteWritesFilter(CrossSiteWrites rule) {
        this.rule = rule;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        HttpServletRequest request = (HttpServletRequest) req;
        String refusal = rule.refusal(request.getMethod(), request.getHeader(HttpHeaders.ORIGIN),
                request.getHeader("Sec-Fetch-Site"), request.getScheme(), host(request));
        if (refusal == null) {
            chain.doFilter(req, res);
            return;
        }
        log.warn("cross-site-write-refused method={} path={} origin=\"{}\"", request.getMethod(),
                request.getRequestURI(), request.getHeader(HttpHeaders.ORIGIN));
        JsonSecurityErrors.write((HttpServletResponse) res, HttpServletResponse.SC_FORBIDDEN,
                new ApiError(ApiError.FORBIDDEN, refusal));
    }

    /** The host the client addressed: its Host header, or (HTTP/1.0 without one) the server's name and port. */
    private static String host(HttpServletRequest request) {
        String host = request.getHeader(HttpHeaders.HOST);
        return host != null ? host : request.getServerName() + ":" + request.getServerPort();
    }
}
