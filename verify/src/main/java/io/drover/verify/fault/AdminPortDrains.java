package io.drover.verify.fault;

import io.drover.cluster.LocalCluster;
import io.drover.rep.evacuation.AdminServer;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * Drains through the rep's admin port, as an operator on the machine does ({@code POST
 * http://127.0.0.1:<admin port>/evacuate?cell=<id>}); a drained cell removes its presence and stays away, so undrain
 * starts its rep again.
 */
public final class AdminPortDrains implements Drains {

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private final LocalCluster cluster;

    public AdminPortDrains(LocalCluster cluster) {
        this.cluster = cluster;
    }

    @Override
    public boolean drain(int rep, String cell) {
        int port = cluster.reps().get(rep).getBean(AdminServer.class).port();
        try {
            HttpResponse<String> answer = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port
                    + "/evacuate?cell=" + cell)).POST(HttpRequest.BodyPublishers.noBody())
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
            return answer.statusCode() == 202;
        } catch (Exception e) {
            return false;
        }
    }

    @Override
    public void undrain(int rep, String cell) {
        cluster.stopCell(rep);
        cluster.startCell(rep);
    }
}
