package io.drover.rep.evacuation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import java.net.InetAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class AdminServerTest {

    private final AdminServer server = new AdminServer(0, cell -> cell == null || cell.equals("cell-a")
            ? Optional.of(new Evacuator.Draining(List.of(cell == null ? "all" : cell), new CompletableFuture<>()))
            : Optional.empty());
    private final HttpClient http = HttpClient.newHttpClient();

    {
        server.start();
    }

    @AfterEach
    void stop() {
        server.stop();
    }

    @Test
    void postEvacuatesOneCellOrAllOfThem() throws Exception {
        assertThat(send("POST", "/evacuate?cell=cell-a")).satisfies(r -> {
            assertThat(r.statusCode()).isEqualTo(202);
            assertThat(r.body()).isEqualTo("{\"evacuating\":[\"cell-a\"]}");
        });
        assertThat(send("POST", "/evacuate").body()).isEqualTo("{\"evacuating\":[\"all\"]}");
    }

    @Test
    void anUnknownCellIsNotFoundAndOtherMethodsAreRefused() throws Exception {
        assertThat(send("POST", "/evacuate?cell=nope").statusCode()).isEqualTo(404);
        assertThat(send("GET", "/evacuate").statusCode()).isEqualTo(405);
    }

    @Test
    void isReachableOnLoopbackOnly() throws Exception {
        assertThat(server.address().getAddress().isLoopbackAddress()).isTrue();
        assertThat(Reachability.accepts(InetAddress.getLoopbackAddress(), server.port())).isTrue();
        List<InetAddress> external = Reachability.selfReachableNonLoopbackAddresses();
        assumeFalse(external.isEmpty(), "this machine has no non-loopback address that reaches itself");
        assertThat(external).as("non-loopback addresses on which POST /evacuate is reachable")
                .filteredOn(address -> Reachability.accepts(address, server.port())).isEmpty();
    }

    private HttpResponse<String> send(String method, String path) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + path))
                .method(method, HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
    }
}
