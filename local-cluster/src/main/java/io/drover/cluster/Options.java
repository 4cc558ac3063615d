package io.drover.cluster;

import java.util.LinkedHashMap;
import java.util.Map;

/** {@code --name=value} and {@code --flag} command-line options. */
final class Options {

    private Options() {
    }

    static Map<String, String> parse(String[] args) {
        Map<String, String> options = new LinkedHashMap<>();
        for (String arg : args) {
            if (!arg.startsWith("--")) {
                throw new IllegalArgumentException("unexpected argument: " + arg);
            }
            int eq = arg.indexOf('=');
            if (eq < 0) {
                options.put(arg.substring(2), "true");
            } else {
                options.put(arg.substring(2, eq), arg.substring(eq + 1));
            }
        }
        return options;
    }
}
