package io.drover.receptor.web.security;

import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Whether a browser may make this write: Basic credentials are sent by a browser that has them on every request to
 * the receptor, whichever page asks, so a page of another site could otherwise make a signed-in operator's browser
 * desire or cancel work (a form POST needs no CORS). A write (any method but GET, HEAD, OPTIONS) whose {@code Origin}
 * is not the receptor's own nor a configured CORS origin is refused, and so is one a browser marks as coming from
 * another site ({@code Sec-Fetch-Site}). Clients that are not browsers send neither header and are not affected. Pure.
 */
final class CrossSiteWrites {

    private static final Set<String> SAFE_METHODS = Set.of("GET", "HEAD", "OPTIONS");

    private final List<String> allowedOrigins;

    CrossSiteWrites(List<String> allowedOrigins) {
        this.allowedOrigins = allowedOrigins.stream().map(CrossSiteWrites::normalise).toList();
    }

    /**
     * @param method the request's method
     * @param origin its {@code Origin} header, or null
     * @param fetchSite its {@code Sec-Fetch-Site} header, or null
     * @param scheme the scheme the request came in on
     * @param host its {@code Host} header, or null
     * @return why it is refused, or null when it may go on
     */
    String refusal(String method, String origin, String fetchSite, String scheme, String host) {
        if (SAFE_METHODS.contains(method)) {
            return null;
        }
        if (origin != null) {
            String from = normalise(origin);
            if (host != null && from.equals(normalise(scheme + "://" + host)) || allowedOrigins.contains(from)) {
                return null;
            }
            return "a write from another origin (" + origin + ") is refused; allow it with "
                    + "drover.receptor.cors-allowed-origins";
        }
        if ("cross-site".equalsIgnoreCase(fetchSite) || "same-site".equalsIgnoreCase(fetchSite)) {
            return "a write a browser sent from another site is refused";
        }
        return null;
    }

    /** scheme://host[:port], lower case, without the scheme's default port; "null" and junk stay as they are. */
    static String normalise(String origin) {
        try {
            URI uri = URI.create(origin.trim());
            if (uri.getScheme() == null || uri.getHost() == null) {
                return origin.trim().toLowerCase(Locale.ROOT);
            }
            String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
            int port = uri.getPort();
            boolean defaultPort = port == -1 || ("http".equals(scheme) && port == 80)
                    || ("https".equals(scheme) && port == 443);
            return scheme + "://" + uri.getHost().toLowerCase(Locale.ROOT) + (defaultPort ? "" : ":" + port);
        } catch (IllegalArgumentException e) {
            return origin.trim().toLowerCase(Locale.ROOT);
        }
    }
}
