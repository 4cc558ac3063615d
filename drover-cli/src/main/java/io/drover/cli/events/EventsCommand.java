package io.drover.cli.events;

import io.drover.cli.api.Receptor;
import io.drover.cli.json.Json;
import io.drover.cli.json.JsonNode;
import io.drover.cli.json.ObjectNode;
import io.drover.cli.output.Ansi;
import io.drover.cli.output.Output;
import io.drover.cli.session.Durations;
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

/**
 * {@code drover events [--since 10m | --last N | --after ID] [--follow] [--type T,...] [--count N] [--for 30s]}: the
 * receptor's event stream, from now on or from a while ago (the receptor keeps a day of events). Without
 * {@code --follow} the command ends when the stream does; with it, it reconnects whenever the stream drops and goes
 * on after the last event it printed, on whichever receptor answers, nothing missed and nothing twice.
 */
@Command(name = "events", description = "Print lifecycle events as they happen, from now on or from a while ago.")
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

    @Option(names = "--since", paramLabel = "DURATION", description = "first the events of this last while, e.g. 10m")
    String since;

    @Option(names = "--last", paramLabel = "N", description = "first the last N events (at most 1000)")
    Integer last;

    @Option(names = "--after", paramLabel = "ID", description = "first the events after this event id")
    String after;

    private int seen;
    private String lastId;

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
        lastId = after;
        String start = start();
        Instant deadline = limit == null ? null : session.clock().instant().plus(limit);
        ScheduledExecutorService timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "drover-events-deadline");
            t.setDaemon(true);
            return t;
        });
        try {
            do {
                InputStream in = session.receptor().stream("/v1/events" + (lastId != null
                        ? "?after=" + Receptor.encode(lastId) : start), "text/event-stream");
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

    /** Where the first stream starts: {@code --since}, {@code --last}, or from now on ({@code --after} is resumed). */
    private String start() {
        if ((since != null ? 1 : 0) + (last != null ? 1 : 0) + (after != null ? 1 : 0) > 1) {
            throw new UsageException("give one of --since, --last and --after");
        }
        if (since != null) {
            return "?since_seconds=" + Durations.parse(since, "--since").toSeconds();
        }
        if (last != null) {
            if (last < 1 || last > 1000) {
                throw new UsageException("--last takes 1 to 1000 events, not " + last);
            }
            return "?last=" + last;
        }
        return "";
    }

    private void read(InputStream in) {
        SseEvent.Parser parser = new SseEvent.Parser();
        try (BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = reader.readLine()) != null) {
                SseEvent event = parser.accept(line);
                if (event != null && event.id() != null) {
                    lastId = event.id();
                }
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
        Instant when = EventSummary.when(data).orElse(session.clock().instant());
        String time = TIME.format(when.atZone(ZoneId.systemDefault()));
        output.line(output.paint(Ansi.DIM, time) + "  " + output.paint(Ansi.BOLD, event.type()) + "  "
                + EventSummary.describe(event.type(), data));
    }

    static Duration parseDuration(String text) {
        return Durations.parse(text, "--for");
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
