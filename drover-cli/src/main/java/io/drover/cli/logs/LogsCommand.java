package io.drover.cli.logs;

import io.drover.cli.api.ApiException;
import io.drover.cli.api.Receptor;
import io.drover.cli.json.JsonNode;
import io.drover.cli.session.Session;
import io.drover.cli.session.UsageException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Consumer;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code drover logs NAME [--index I [--previous]] [-f] [--tail N] [--stream stdout|stderr|rep]}: one instance's log,
 * or every instance's (each line prefixed with its index). With {@code -f} it follows until the instances stop or
 * Ctrl-C. With {@code --previous}, the last lines of index I's previous instance (the one that crashed or was replaced).
 */
@Command(name = "logs", description = "Show what the instances of NAME printed, and the rep's lifecycle lines.")
public final class LogsCommand implements Callable<Integer> {

    private final Session session;
    private LogPrinter printer;

    @Parameters(index = "0", paramLabel = "NAME")
    String name;

    @Option(names = { "-i", "--index" }, paramLabel = "I", description = "only this instance (default: all)")
    Integer index;

    @Option(names = { "-f", "--follow" }, description = "keep printing new lines until the instances stop")
    boolean follow;

    @Option(names = { "-n", "--tail" }, defaultValue = "100", paramLabel = "N",
            description = "lines from each instance's past first (default 100)")
    int tail;

    @Option(names = "--stream", paramLabel = "stdout|stderr|rep", description = "only this source")
    String stream;

    @Option(names = "--previous", description = "the previous instance of --index I (the one that crashed or was "
            + "replaced), while its cell keeps its last lines")
    boolean previous;

    public LogsCommand(Session session) {
        this.session = session;
    }

    @Override
    public Integer call() throws InterruptedException {
        LogPrinter.query(tail, follow, stream); // checks the options
        if (previous && index == null) {
            throw new UsageException("--previous needs --index: the previous instance of which index?");
        }
        printer = new LogPrinter(session.output(), "process_guid", name, index == null);
        if (index != null) {
            read(index, this::print);
            return 0;
        }
        List<Integer> indices = placedIndices();
        return follow ? followAll(indices) : tailAll(indices);
    }

    private int tailAll(List<Integer> indices) {
        List<LogLine> lines = new ArrayList<>();
        int failed = 0;
        for (int i : indices) {
            try {
                read(i, lines::add);
            } catch (ApiException e) {
                failed++;
                session.output().error("instance " + i + ": " + e.name() + ": " + e.getMessage());
            }
        }
        lines.sort(Comparator.comparing(LogLine::timestamp));
        lines.forEach(this::print);
        return failed == indices.size() ? 1 : 0;
    }

    private int followAll(List<Integer> indices) throws InterruptedException {
        List<Thread> readers = new ArrayList<>();
        int[] failed = new int[1];
        for (int i : indices) {
            Thread reader = new Thread(() -> {
                try {
                    read(i, this::print);
                } catch (ApiException e) {
                    synchronized (failed) {
                        failed[0]++;
                    }
                    session.output().error("instance " + i + ": " + e.name() + ": " + e.getMessage());
                }
            }, "drover-logs-" + i);
            reader.setDaemon(true);
            reader.start();
            readers.add(reader);
        }
        for (Thread reader : readers) {
            reader.join();
        }
        return failed[0] == indices.size() ? 1 : 0;
    }

    /** The indices with an instance on a cell; the desired LRP's 404 when there is nothing of NAME at all. */
    private List<Integer> placedIndices() {
        Receptor receptor = session.receptor();
        List<JsonNode> actuals = receptor.list("/v1/actual_lrps/" + Receptor.encode(name));
        if (actuals.isEmpty()) {
            receptor.get("/v1/desired_lrps/" + Receptor.encode(name));
        }
        List<Integer> placed = actuals.stream().filter(a -> !a.path("cell_id").asString("").isEmpty())
                .map(a -> a.path("index").asInt()).sorted().toList();
        if (placed.isEmpty()) {
            throw new ApiException("InstanceNotOnCell", name + " has no instance on a cell yet", 409);
        }
        return placed;
    }

    /** The receptor's path of instance {@code i}'s log as the options ask for it. */
    String path(int i) {
        return "/v1/actual_lrps/" + Receptor.encode(name) + "/index/" + i + "/logs"
                + LogPrinter.query(tail, follow, stream) + (previous ? "&previous=true" : "");
    }

    private void read(int i, Consumer<LogLine> sink) {
        LogPrinter.read(session.receptor().stream(path(i), "text/plain"), i, sink);
    }

    private void print(LogLine line) {
        printer.print(line);
    }
}
