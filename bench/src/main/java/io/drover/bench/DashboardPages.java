package io.drover.bench;

import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The dashboard's pages over the cluster P1 left (issue 41: the overview and cells pages within 300 ms of server time,
 * the LRP list keyset-paged): each page fetched twice to warm it, then {@value #TIMES} times one after another, the
 * median and the slowest reported. Timed by the benchmark around each request on the loopback interface, so a figure is
 * the server's time plus one local round trip.
 */
final class DashboardPages {

    static final int TIMES = 7;
    static final double TARGET_MS = 300;
    private static final List<String> PAGES = List.of("/ui/", "/ui/cells", "/ui/lrps");

    private DashboardPages() {
    }

    static Figure run(ReceptorClient client) {
        StringBuilder figure = new StringBuilder();
        double worstMedian = 0;
        List<String> failures = new ArrayList<>();
        for (String page : PAGES) {
            double[] ms = new double[TIMES];
            for (int i = -2; i < TIMES; i++) {
                long started = System.nanoTime();
                HttpResponse<String> answer = client.send("GET", page, null);
                double took = (System.nanoTime() - started) / 1e6;
                if (answer.statusCode() != 200) {
                    failures.add(page + " " + answer.statusCode());
                }
                if (i >= 0) {
                    ms[i] = took;
                }
            }
            Arrays.sort(ms);
            double median = ms[TIMES / 2];
            worstMedian = Math.max(worstMedian, median);
            figure.append(figure.isEmpty() ? "" : ", ").append("%s %.0f ms (max %.0f)".formatted(page, median,
                    ms[TIMES - 1]));
        }
        return new Figure("D dashboard pages (median of %d)".formatted(TIMES), figure.toString(),
                "median of each <= %.0f ms".formatted(TARGET_MS), failures.isEmpty() && worstMedian <= TARGET_MS,
                failures.isEmpty() ? "timed around each request on the loopback interface: the server's time plus one "
                        + "local round trip" : "pages that did not answer 200: " + failures);
    }
}
