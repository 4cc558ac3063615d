package io.drover.receptor.task;

import io.drover.receptor.web.ApiError;
import io.drover.receptor.web.ApiException;
import java.net.InetAddress;
import java.net.URI;
import java.net.UnknownHostException;
import java.util.Arrays;
import java.util.List;

/**
 * Checks a submission's {@code completion_callback_url} against {@link CallbackTargets} with what the receptor knows:
 * the addresses its host resolves to now (the JVM's DNS cache keeps them for a while) and the cluster's own endpoints
 * ({@link ClusterEndpoints}). A refused URL is a 400 InvalidTask naming the field and why.
 */
final class CallbackUrls {

    private final CallbackTargets targets;
    private final ClusterEndpoints cluster;

    CallbackUrls(CallbackTargets targets, ClusterEndpoints cluster) {
        this.targets = targets;
        this.cluster = cluster;
    }

    /** Throws InvalidTask when {@code url} (already a valid http(s) URL, or null) may not be called back. */
    void check(String url) {
        if (url == null) {
            return;
        }
        URI uri = URI.create(url);
        String host = uri.getHost().startsWith("[") ? uri.getHost().substring(1, uri.getHost().length() - 1)
                : uri.getHost();
        int port = uri.getPort() >= 0 ? uri.getPort() : "https".equalsIgnoreCase(uri.getScheme()) ? 443 : 80;
        targets.refusal(new CallbackTargets.Target(host, port, resolve(host)), cluster.all()).ifPresent(why -> {
            throw ApiException.badRequest(ApiError.INVALID_TASK, "Invalid field: completion_callback_url (refused: "
                    + why + ")");
        });
    }

    private static List<InetAddress> resolve(String host) {
        try {
            return Arrays.asList(InetAddress.getAllByName(host));
        } catch (UnknownHostException | RuntimeException e) {
            return List.of();
        }
    }
}
