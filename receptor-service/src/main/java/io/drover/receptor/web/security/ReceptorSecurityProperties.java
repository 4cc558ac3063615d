package io.drover.receptor.web.security;

import java.util.List;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * {@code drover.receptor.*} security settings (env {@code DROVER_RECEPTOR_USERNAME}, {@code DROVER_RECEPTOR_PASSWORD},
 * ...): the Basic credentials (a password is generated when none is set), the loopback-only dev mode, the origins
 * allowed by CORS (none: CORS off), and the names besides localhost a receptor listening on loopback answers to.
 */
@ConfigurationProperties("drover.receptor")
record ReceptorSecurityProperties(String username, String password, boolean devMode,
        List<String> corsAllowedOrigins, List<String> allowedHosts) {

    ReceptorSecurityProperties {
        username = username == null || username.isBlank() ? "drover" : username;
        corsAllowedOrigins = corsAllowedOrigins == null ? List.of() : List.copyOf(corsAllowedOrigins);
        allowedHosts = allowedHosts == null ? List.of() : List.copyOf(allowedHosts);
    }

    @Override
    public String toString() {
        // Never let the secret reach a log line through toString().
        return "ReceptorSecurityProperties[username=" + username + ", password=" + (password == null ? "unset" : "***")
                + ", devMode=" + devMode + ", corsAllowedOrigins=" + corsAllowedOrigins + ", allowedHosts="
                + allowedHosts + "]";
    }
}
