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

/**
 * Refuses, first of all and with 421 Misdirected Request in the API's error shape, a request that
 * {@link LoopbackHosts} says is not addressed to this receptor.
 */
final class LoopbackHostFilter implements Filter {

    private static final Logger log = LoggerFactory.getLogger(LoopbackHostFilter.class);
    private static final int MISDIRECTED_REQUEST = 421;

    private final LoopbackHosts hosts;

    LoopbackHostFilter(LoopbackHosts hosts) {
        this.hosts = hosts;
    }

    @Override
    public void doFilter(ServletRequest req, ServletResponse res, FilterChain chain)
            throws IOException, ServletException {
        String refusal = hosts.refusal(req.getServerName()); // the Host header's name (Tomcat parses it)
        if (refusal == null) {
            chain.doFilter(req, res);
            return;
        }
        log.warn("request-for-another-host-refused path={} host=\"{}\"", ((HttpServletRequest) req).getRequestURI(),
                req.getServerName());
        JsonSecurityErrors.write((HttpServletResponse) res, MISDIRECTED_REQUEST,
                new ApiError(ApiError.INVALID_REQUEST, refusal));
    }
}
