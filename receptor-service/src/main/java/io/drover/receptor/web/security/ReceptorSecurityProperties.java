package io.drover.receptor.web.security;

import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code drover.receptor.*} security settings (env {@code DROVER_RECEPTOR_USERNAME}, {@code DROVER_RECEPTOR_PASSWORD},
 * ...): the Basic credentials (a password is generated when none is set), the loopback-only dev mode, and the origins
 * allowed by CORS (none: CORS off).
 */
@ConfigurationProperties("drover.receptor")
record ReceptorSecurityProperties(String username, String password, boolean devMode,
        List<String> corsAllowedOrigins) {

    ReceptorSecurityProperties {
        username = username == null || username.isBlank() ? "drover" : username;
        corsAllowedOrigins = corsAllowedOrigins == null ? List.of() : List.copyOf(corsAllowedOrigins);
    }

    @Override
    public String toString() {
        // Never let the secret reach a log line through toString().
        return "ReceptorSecurityProperties[username=" + username + ", password=" + (password == null ? "unset" : "***")
                + ", devMode=" + devMode + ", corsAllowedOrigins=" + corsAllowedOrigins + "]";
    }
}
