package io.drover.model.route;

import io.drover.model.json.Json;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;
import tools.jackson.databind.JsonNode;

/**
 * A desired LRP's routes in Diego's shape, {@code {"cf-router": [{"hostnames": ["web.example.com"], "port": 8080}]}}:
 * the only key Drover reads (other keys stay opaque, as in Diego). The receptor checks a document with
 * {@link #invalidFields} before it stores it; the router reads stored ones with {@link #parse}.
 */
public final class CfRoutes {

    /** The key of the router's routes in a routes document. */
    public static final String KEY = "cf-router";
    private static final String QUOTED_KEY = "\"" + KEY + "\"";
    /** One DNS label: letters, digits and hyphens, neither first nor last, 1 to 63 characters. */
    private static final Pattern LABEL = Pattern.compile("[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?");

    private CfRoutes() {
    }

    /**
     * Whether a stored routes document mentions the router's key: the test the read model's routed LRPs are selected
     * by ({@code RouteRows}), on the same text, so a reader tracks exactly the LRPs the fingerprint covers.
     */
    public static boolean mentioned(String routesJson) {
        return routesJson != null && routesJson.contains(QUOTED_KEY);
    }

    /** The routes of a stored document (null: none). Lenient: it was checked when it was stored; what is odd is skipped. */
    public static List<CfRoute> parse(String routesJson) {
        if (!mentioned(routesJson)) {
            return List.of();
        }
        JsonNode entries;
        try {
            entries = Json.tree(routesJson).get(KEY);
        } catch (RuntimeException unreadable) {
            return List.of();
        }
        List<CfRoute> routes = new ArrayList<>();
        if (entries == null || !entries.isArray()) {
            return routes;
        }
        for (JsonNode entry : entries) {
            JsonNode names = entry.get("hostnames");
            JsonNode port = entry.get("port");
            if (names == null || !names.isArray() || port == null || !port.canConvertToInt()) {
                continue;
            }
            List<String> hostnames = new ArrayList<>();
            for (JsonNode name : names) {
                if (name.isString() && isHostname(name.asString())) {
                    hostnames.add(name.asString().toLowerCase(Locale.ROOT));
                }
            }
            if (!hostnames.isEmpty()) {
                routes.add(new CfRoute(hostnames, port.asInt()));
            }
        }
        return routes;
    }

    /**
     * The fields of a routes object that are not what the router reads, named by path ({@code routes.cf-router[0].port}):
     * the key's value must be an array of objects, each with {@code hostnames} (a non-empty array of DNS names) and a
     * {@code port} that is one of the LRP's container {@code ports}. Empty when it is fine or does not mention the key.
     */
    public static List<String> invalidFields(JsonNode routes, Collection<Integer> ports) {
        List<String> invalid = new ArrayList<>();
        JsonNode entries = routes == null ? null : routes.get(KEY);
        if (entries == null) {
            return invalid;
        }
        String base = "routes." + KEY;
        if (!entries.isArray()) {
            invalid.add(base);
            return invalid;
        }
        for (int i = 0; i < entries.size(); i++) {
            String at = base + "[" + i + "]";
            JsonNode entry = entries.get(i);
            if (!entry.isObject()) {
                invalid.add(at);
                continue;
            }
            JsonNode names = entry.get("hostnames");
            if (names == null || !names.isArray() || names.isEmpty()) {
                invalid.add(at + ".hostnames");
            } else {
                for (int n = 0; n < names.size(); n++) {
                    if (!names.get(n).isString() || !isHostname(names.get(n).asString())) {
                        invalid.add(at + ".hostnames[" + n + "]");
                    }
                }
            }
            JsonNode port = entry.get("port");
            if (port == null || !port.isIntegralNumber() || !port.canConvertToInt()
                    || ports == null || !ports.contains(port.asInt())) {
                invalid.add(at + ".port");
            }
        }
        return invalid;
    }

    /** A DNS name: dot-separated labels, at most 253 characters (a trailing dot is not taken). */
    public static boolean isHostname(String name) {
        if (name == null || name.isEmpty() || name.length() > 253) {
            return false;
        }
        for (String label : name.split("\\.", -1)) {
            if (!LABEL.matcher(label).matches()) {
                return false;
            }
        }
        return true;
    }
}
