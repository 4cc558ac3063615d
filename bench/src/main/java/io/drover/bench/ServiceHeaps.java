package io.drover.bench;

import io.drover.cluster.ProcessCluster;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * P5 per service, SPEC 11 as stated: each service's heap in use after a full GC, in its own JVM (asked with
 * {@code jcmd GC.run}, then read from {@code jcmd GC.heap_info}).
 */
final class ServiceHeaps {

    private static final Pattern USED = Pattern.compile("heap\\s+total \\d+K, used (\\d+)K");
    private static final long BUDGET_MB = 512;

    private ServiceHeaps() {
    }

    static List<Figure> run(ProcessCluster cluster) throws IOException, InterruptedException {
        List<Figure> figures = new ArrayList<>();
        for (ProcessCluster.Service service : cluster.services()) {
            long pid = service.process().pid();
            Jcmd.run(pid, "GC.run");
            Matcher used = USED.matcher(Jcmd.run(pid, "GC.heap_info"));
            long usedMb = used.find() ? Long.parseLong(used.group(1)) / 1024 : -1;
            figures.add(new Figure("P5 heap after GC: " + service.name() + " (own JVM)",
                    "%,d MB used after GC".formatted(usedMb), "<= %d MB".formatted(BUDGET_MB),
                    usedMb >= 0 && usedMb <= BUDGET_MB, "pid %d, after the load of P1-P4".formatted(pid)));
        }
        return figures;
    }
}
