package io.drover.receptor.web.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The one API user. Compared in constant time on a digest of both sides (no per-request password hashing: a bcrypt
 * check on every request would cost more than the request itself).
 */
final class ReceptorCredentials {

    private final String username;
    private final String password;
    private final boolean generated;

    private ReceptorCredentials(String username, String password, boolean generated) {
        this.username = username;
        this.password = password;
        this.generated = generated;
    }

    static ReceptorCredentials from(ReceptorSecurityProperties properties, SecureRandom random) {
        if (properties.password() != null && !properties.password().isEmpty()) {
            return new ReceptorCredentials(properties.username(), properties.password(), false);
        }
        byte[] secret = new byte[18];
        random.nextBytes(secret);
        return new ReceptorCredentials(properties.username(), Base64.getUrlEncoder().withoutPadding()
                .encodeToString(secret), true);
    }

    boolean matches(String givenUsername, String givenPassword) {
        boolean user = MessageDigest.isEqual(digest(givenUsername), digest(username));
        boolean secret = MessageDigest.isEqual(digest(givenPassword), digest(password));
        return user & secret;
    }

    String username() {
        return username;
    }

    /** Only for the one start-up line that prints a generated password; never called for a configured one. */
    String generatedPassword() {
        if (!generated) {
            throw new IllegalStateException("the password was configured; it is never shown");
        }
        return password;
    }

    boolean generated() {
        return generated;
    }

    private static byte[] digest(String value) {
        try {
            return MessageDigest.getInstance("SHA-256")
                    .digest((value == null ? "" : value).getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return "ReceptorCredentials[username=" + username + ", password=***]";
    }
}
