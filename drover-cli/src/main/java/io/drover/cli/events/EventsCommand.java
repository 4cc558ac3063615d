package io.drover.cli.events;

import io.drover.cli.json.Json;
import io.drover.cli.api.Receptor;
import io.drover.cli.output.Ansi;
import io.drover.cli.output.Output;
import io.drover.cli.session.Session;
import io.drover.cli.session.UsageException;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import io.drover.cli.json.JsonNode;
import io.drover.cli.json.ObjectNode;

/**
 * {@code drover events [--follow] [--type T,...] [--count N] [--for 30s]}: the receptor's live event stream (it keeps no
 * history: events from now on). Without {@code --follow} the command ends when the stream does; with it, it
 * reconnects whenever the receptor drops the stream.
 */
@Command(name = "events", description = "Print lifecycle events as they happen (from now on; the receptor keeps "
        + "no history).")
public final class EventsCommand implements Callable<Integer> {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("HH:mm:ss.SSS");

    private final Session session;

    @Option(names = { "-f", "--follow" }, description = "reconnect when the stream drops; run until Ctrl-C")
    boolean follow;

    @Option(names = { "-t", "--type" }, split = ",", paramLabel = "TYPE",
            description = "only these event types (repeatable or comma-separated): ${COMPLETION-CANDIDATES}",
            completionCandidates = Types.class)
    List<String> types = new ArrayList<>();

    @Option(names = { "-n", "--count" }, defaultValue = "0", description = "stop after this many events")
    int count;

    @Option(names = "--for", paramLabel = "DURATION", description = "stop after this long, e.g. 30s, 5m, 1h")
    String duration;

    private int seen;

    public EventsCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() {
        types.stream().filter(t -> !EventSummary.TYPES.contains(t)).findFirst().ifPresent(t -> {
            throw new UsageException("unknown event type '" + t + "'; one of " + String.join(", ",
                    EventSummary.TYPES.stream().sorted().toList()));
        });
        Duration limit = duration == null ? null : parseDuration(duration);
        Instant deadline = limit == null ? null : session.clock().instant().plus(limit);
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "drover-events-deadline");
            t.setDaemon(true);
            return t;
        });
        try {
            do {
                InputStream in = session.receptor().stream("/v1/events", "text/event-stream");
                if (deadline != null) {
                    long left = Math.max(0, Duration.between(session.clock().instant(), deadline).toMillis());
                    timer.schedule(() -> close(in), left, TimeUnit.MILLISECONDS);
                }
                read(in);
            } while (follow && !done(deadline));
        } finally {
            timer.shutdownNow();
        }
        return 0;
    }

    private void read(InputStream in) {
        SseEvent.Parser parser = new SseEvent.Parser();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                SseEvent event = parser.accept(line);
                if (event != null && (types.isEmpty() || types.contains(event.type()))) {
                    print(event);
                    if (count > 0 && ++seen >= count) {
                        return;
                    }
                }
            }
        } catch (IOException e) {
            // the stream was closed: by the receptor, or by --for
        }
    }

    private boolean done(Instant deadline) {
        return count > 0 && seen >= count || deadline != null && !session.clock().instant().isBefore(deadline);
    }

    private void print(SseEvent event) {
        Output output = session.output();
        JsonNode data;
        try {
            data = Json.parse(event.data());
        } catch (RuntimeException e) {
            data = Json.text(event.data());
        }
        if (output.json()) {
            ObjectNode node = Json.object().put("id", event.id()).put("type", event.type());
            node.set("data", data);
            output.json(node);
            return;
        }
        String time = TIME.format(session.clock().instant().atZone(ZoneId.systemDefault()));
        output.line(output.paint(Ansi.DIM, time) + "  " + output.paint(Ansi.BOLD, event.type()) + "  "
                + EventSummary.describe(event.type(), data));
    }

    static Duration parseDuration(String text) {
        String t = text.strip().toLowerCase();
        try {
            long n = Long.parseLong(t.substring(0, t.length() - 1));
            Duration d = switch (t.charAt(t.length() - 1)) {
                case 's' -> Duration.ofSeconds(n);
                case 'm' -> Duration.ofMinutes(n);
                case 'h' -> Duration.ofHours(n);
                default -> null;
            };
            if (d != null && !d.isNegative() && !d.isZero()) {
                return d;
            }
        } catch (RuntimeException e) {
            // said below
        }
        throw new UsageException("--for takes a duration such as 30s, 5m or 1h, not '" + text + "'");
    }

    private static void close(InputStream in) {
        try {
            in.close();
        } catch (IOException e) {
            // already closed
        }
    }

    /** The event types, for completion and the help text. */
    static final class Types extends ArrayList<String> {

        Types() {
            super(EventSummary.TYPES.stream().sorted().toList());
        }
    }
}
