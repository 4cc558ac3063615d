package io.drover.receptor.domains;

import io.drover.receptor.web.ApiError;
import io.drover.receptor.web.ApiException;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** The freshness TTL of a domain from {@code Cache-Control: max-age=N}; no max-age means the domain never expires. */
final class CacheControl {

    /** Ten years: longer is a mistake, and far beyond it the expiry time would not fit a timestamp. */
    static final long MAX_AGE_SECONDS = 10L * 365 * 24 * 3600;
    private static final Pattern MAX_AGE = Pattern.compile("(?i)(?:^|,)\\s*max-age\\s*=\\s*\"?([^,\"\\s]*)\"?\\s*(?:,|$)");

    private CacheControl() {
    }

    /** Null when the header is absent or has no max-age directive. */
    static Duration maxAge(String header) {
        if (header == null) {
            return null;
        }
        Matcher m = MAX_AGE.matcher(header);
        if (!m.find()) {
            return null;
        }
        String value = m.group(1);
        if (!value.matches("[0-9]{1,12}") || Long.parseLong(value) > MAX_AGE_SECONDS) {
            throw ApiException.badRequest(ApiError.INVALID_DOMAIN,
                    "Cache-Control max-age must be a whole number of seconds from 0 to " + MAX_AGE_SECONDS);
        }
        return Duration.ofSeconds(Long.parseLong(value));
    }
}
