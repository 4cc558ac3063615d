package io.drover.receptor.web.security;

import java.util.List;
import org.springframework.security.authentication.AuthenticationProvider;
import org.springframework.security.authentication.BadCredentialsException;
import org.springframework.security.authentication.UsernamePasswordAuthenticationToken;
import org.springframework.security.core.Authentication;
import org.springframework.security.core.authority.SimpleGrantedAuthority;

/** Checks HTTP Basic credentials against the configured (or generated) user. */
final class CredentialsAuthenticationProvider implements AuthenticationProvider {

    private final ReceptorCredentials credentials;

    CredentialsAuthenticationProvider(ReceptorCredentials credentials) {
        this.credentials = credentials;
    }

    @Override
    public Authentication authenticate(Authentication authentication) {
        Object secret = authentication.getCredentials();
        if (!credentials.matches(authentication.getName(), secret == null ? null : secret.toString())) {
            throw new BadCredentialsException("bad credentials");
        }
        return UsernamePasswordAuthenticationToken.authenticated(authentication.getName(), null,
                List.of(new SimpleGrantedAuthority("ROLE_API")));
    }

    @Override
    public boolean supports(Class<?> authentication) {
        return UsernamePasswordAuthenticationToken.class.isAssignableFrom(authentication);
    }
}
