package io.drover.cli.cells;

import io.drover.cli.api.ApiException;
import io.drover.cli.api.Receptor;
import io.drover.cli.json.JsonNode;
import io.drover.cli.output.Output;
import io.drover.cli.session.Durations;
import io.drover.cli.session.Session;
import io.drover.cli.session.UsageException;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code drover drain CELL [--deadline 10m] [--wait [--timeout D]]}: the cell takes no new work and hands every
 * instance over (SPEC 18); {@code --wait} follows it until it is DRAINED.
 */
@Command(name = "drain", description = "Drain a cell: it takes no new work, hands every instance over (each runs "
        + "elsewhere before the old one stops), and stays DRAINED until 'drover undrain'.")
public final class DrainCommand implements Callable<Integer> {

    private static final Duration POLL = Duration.ofSeconds(1);
    /** How long past the drain's deadline --wait waits by default: the rep stops what is left at the deadline. */
    private static final Duration GRACE = Duration.ofMinutes(1);

    private final Session session;

    @Parameters(index = "0", paramLabel = "CELL")
    String cell;

    @Option(names = "--deadline", paramLabel = "DURATION", description = "how long its instances and tasks may take "
            + "(default: the rep's, 10m); then what still runs is stopped and its tasks fail")
    String deadline;

    @Option(names = { "-w", "--wait" }, description = "follow the drain until the cell is DRAINED; exit 1 when it is "
            + "undrained meanwhile or the wait times out")
    boolean await;

    @Option(names = "--timeout", paramLabel = "DURATION", description = "how long --wait follows (default: until a "
            + "minute past the drain's deadline)")
    String timeout;

    public DrainCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() throws InterruptedException {
        Duration given = deadline == null ? null : Durations.parse(deadline, "--deadline");
        Duration limit = timeout == null ? null : Durations.parse(timeout, "--timeout");
        if (limit != null && !await) {
            throw new UsageException("--timeout needs --wait");
        }
        JsonNode drained = session.receptor().call("POST", path(), given == null ? null
                : "{\"deadline\": " + given.toSeconds() + "}");
        if (!await) {
            show(drained);
            return 0;
        }
        return follow(drained, limit);
    }

    /** Prints a line whenever the cell changes, until it is DRAINED (0); undrained meanwhile or too long: exit 1. */
    private int follow(JsonNode started, Duration limit) throws InterruptedException {
        Instant until = limit != null ? session.clock().instant().plus(limit)
                : Instant.parse(started.path("drain").path("deadline_at").asString()).plus(GRACE);
        JsonNode now = started;
        String shown = null;
        while (true) {
            String line = DrainView.line(now, session.clock().instant());
            if (!line.equals(shown)) {
                show(now);
                shown = line;
            }
            String state = now.path("state").asString();
            if (state.equals("DRAINED")) {
                return 0;
            }
            if (now.path("drain").isNull()) {
                throw new ApiException("DrainWithdrawn", cell + " was undrained before its drain was done", 0);
            }
            if (!session.clock().instant().isBefore(until)) {
                throw new ApiException("DrainTimeout", cell + " is still draining (it goes on; drover cells)", 0);
            }
            Thread.sleep(POLL.toMillis());
            now = session.receptor().get("/v1/cells/" + Receptor.encode(cell));
        }
    }

    private void show(JsonNode cellNow) {
        Output output = session.output();
        if (output.json()) {
            output.json(cellNow);
        } else {
            output.line(DrainView.line(cellNow, session.clock().instant()));
        }
    }

    private String path() {
        return "/v1/cells/" + Receptor.encode(cell) + "/drain";
    }
}
