package io.drover.rep.logs;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * The secret the receptors present ({@code Authorization: Bearer <secret>}), compared in constant time on digests of
 * both sides, so neither the secret's content nor its length leaks through timing. Never printed.
 */
final class SharedSecret {

    private final byte[] digest;

    SharedSecret(String secret) {
        this.digest = digest(secret);
    }

    boolean matches(String authorization) {
        String given = authorization != null && authorization.startsWith("Bearer ") ? authorization.substring(7) : "";
        return MessageDigest.isEqual(digest, digest(given)) & !given.isEmpty();
    }

    private static byte[] digest(String value) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(value.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return "SharedSecret[***]";
    }
}
