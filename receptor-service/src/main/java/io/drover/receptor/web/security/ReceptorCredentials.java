package io.drover.receptor.web.security;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;

/**
 * The one API user. Compared in constant time on a digest of both sides (no per-request password hashing: a bcrypt
 * check on every request would cost more than the request itself); the configured side is digested once.
 */
final class ReceptorCredentials {

    private final String username;
    private final String password;
    private final boolean generated;
    private final byte[] usernameDigest;
    private final byte[] passwordDigest;
    private final byte[] basicHeaderDigest;

    private ReceptorCredentials(String username, String password, boolean generated) {
        this.username = username;
        this.password = password;
        this.generated = generated;
        this.usernameDigest = digest(username);
        this.passwordDigest = digest(password);
        this.basicHeaderDigest = digest("Basic " + Base64.getEncoder().encodeToString(
                (username + ":" + password).getBytes(StandardCharsets.UTF_8)));
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
        boolean user = MessageDigest.isEqual(digest(givenUsername), usernameDigest);
        boolean secret = MessageDigest.isEqual(digest(givenPassword), passwordDigest);
        return user & secret;
    }

    /**
     * Whether {@code authorization} is exactly the header a client of these credentials sends ({@code Basic} and their
     * base64 form); compared in constant time on digests. Other spellings of the same credentials are for
     * {@link #matches}.
     */
    boolean isTheBasicHeader(String authorization) {
        return authorization != null && MessageDigest.isEqual(digest(authorization), basicHeaderDigest);
    }

    String username() {
        return username;
    }

    /** Only for the file a generated password is written to; never called for a configured one. */
    String generatedPassword() {
        if (!generated) {
            throw new IllegalStateException("the password was configured; it is never shown");
        }
        return password;
    }

    boolean generated() {
        return generated;
    }

    /** Looking a digest up by name costs more than digesting a password: one instance per thread, reused. */
    private static final ThreadLocal<MessageDigest> SHA_256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    });

    private static byte[] digest(String value) {
        return SHA_256.get().digest((value == null ? "" : value).getBytes(StandardCharsets.UTF_8));
    }

    @Override
    public String toString() {
        return "ReceptorCredentials[username=" + username + ", password=***]";
    }
}
