package io.drover.receptor.web.security;

import jakarta.servlet.Filter;
import jakarta.servlet.FilterChain;
import jakarta.servlet.ServletException;
import jakarta.servlet.ServletRequest;
import jakarta.servlet.ServletResponse;
import jakarta.servlet.http.HttpServletRequest;
import java.io.IOException;
import java.util.List;
import org.springframework.http.HttpHeaders;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.authority.SimpleGrantedAuthority;
import org.springframework.security.core.context.SecurityContext;
import org.springframework.security.core.context.SecurityContextHolder;
import org.springframework.security.core.context.SecurityContextHolderStrategy;

/**
 * The fast path of HTTP Basic: a request whose {@code Authorization} header is exactly the configured credentials'
 * (what every client sends on every request) is authenticated with one digest comparison, and the Basic filter after
 * it then finds the request authenticated. Any other header (wrong, malformed, another spelling) goes through the Basic
 * filter as before, which answers 401 or authenticates it.
 */
final class KnownCredentialsFilter implements Filter {

    private final ReceptorCredentials credentials;
    private final Authentication authenticated;
    private final SecurityContextHolderStrategy contexts = SecurityContextHolder.getContextHolderStrategy();

    KnownCredentialsFilter(ReceptorCredentials credentials) {
        this.credentials = credentials;
        this.authenticated = UsernamePasswordAuthenticationToken.authenticated(credentials.username(), null,
                List.of(new SimpleGrantedAuthority("ROLE_API")));
    }

    @Override
    public void doFilter(ServletRequest request, ServletResponse response, FilterChain chain)
            throws IOException, ServletException {
        if (credentials.isTheBasicHeader(((HttpServletRequest) request).getHeader(HttpHeaders.AUTHORIZATION))) {
            SecurityContext context = contexts.createEmptyContext();
            context.setAuthentication(authenticated);
            contexts.setContext(context);
        }
        chain.doFilter(request, response);
    }
}
