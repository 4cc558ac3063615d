package io.drover.cluster;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/** {@code --name=value} and {@code --flag} command-line options, checked against the ones a program knows. */
final class Options {

    private Options() {
    }

    /** The options given; an unknown option, or a bare word, is an {@link IllegalArgumentException} naming it. */
    static Map<String, String> parse(String[] args, Set<String> known) {
        Map<String, String> options = new LinkedHashMap<>();
        for (String arg : args) {
            if (!arg.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument: " + arg);
            }
            int eq = arg.indexOf('=');
            String name = eq < 0 ? arg.substring(2) : arg.substring(2, eq);
            if (!known.contains(name)) {
                throw new IllegalArgumentException("unknown option --" + name);
            }
            options.put(name, eq < 0 ? "true" : arg.substring(eq + 1));
        }
        return options;
    }

    /** A whole number option at least {@code min}, or {@code fallback} when not given. */
    static int number(Map<String, String> options, String name, int fallback, int min) {
        String value = options.get(name);
        if (value == null) {
            return fallback;
        }
        try {
            int n = Integer.parseInt(value);
            if (n >= min) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException("--" + name + " needs a whole number of at least " + min + ", not "
                + value);
    }
}
