package io.drover.receptor.domains;

import io.drover.receptor.web.ApiError;
import io.drover.receptor.web.ApiException;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The freshness TTL of a domain from {@code Cache-Control: max-age=N}. No header means the domain never expires; a
 * header without a valid {@code max-age} is a bad request (it would otherwise silently mean "forever", the opposite of
 * what a caller who sent a TTL wanted).
 */
final class CacheControl {

    /** Ten years: longer is a mistake, and far beyond it the expiry time would not fit a timestamp. */
    static final long MAX_AGE_SECONDS = 10L * 365 * 24 * 3600;
    private static final Pattern MAX_AGE = Pattern.compile("(?i)(?:^|,)\\s*max-age\\s*=\\s*\"?([^,\"\\s]*)\"?\\s*(?:,|$)");

    private CacheControl() {
    }

    /** Null when the header is absent. */
    static Duration maxAge(String header) {
        if (header == null) {
            return null;
        }
        Matcher m = MAX_AGE.matcher(header);
        String value = m.find() ? m.group(1) : null;
        if (value == null || !value.matches("[0-9]{1,12}") || Long.parseLong(value) > MAX_AGE_SECONDS) {
            throw ApiException.badRequest(ApiError.INVALID_REQUEST, "Cache-Control must carry max-age, a whole "
                    + "number of seconds from 0 to " + MAX_AGE_SECONDS + " (leave the header out: never expires)");
        }
        return Duration.ofSeconds(Long.parseLong(value));
    }
}
