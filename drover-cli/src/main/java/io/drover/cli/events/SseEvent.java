package io.drover.cli.events;

import java.util.ArrayList;
import java.util.List;

/** One server-sent event; {@link Parser} reads them from the stream's lines (comments are skipped). */
record SseEvent(String id, String type, String data) {

    /** Feeds lines one by one; returns an event when a blank line completes one. Pure. */
    static final class Parser {

        private String id;
        private String type;
        private final List<String> data = new ArrayList<>();

        SseEvent accept(String line) {
            if (line.isEmpty()) {
                SseEvent event = type == null && data.isEmpty() ? null
                        : new SseEvent(id, type == null ? "message" : type, String.join("\n", data));
                type = null;
                data.clear();
                return event;
            }
            if (line.startsWith(":")) {
                return null;
            }
            int colon = line.indexOf(':');
            String field = colon < 0 ? line : line.substring(0, colon);
            String value = colon < 0 ? "" : line.substring(colon + 1);
            if (value.startsWith(" ")) {
                value = value.substring(1);
            }
            switch (field) {
                case "id" -> id = value;
                case "event" -> type = value;
                case "data" -> data.add(value);
                default -> {
                    // retry and unknown fields mean nothing here
                }
            }
            return null;
        }
    }
}
