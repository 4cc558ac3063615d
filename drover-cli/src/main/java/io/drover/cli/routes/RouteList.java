package io.drover.cli.routes;

import io.drover.cli.json.JsonNode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * The routes of desired LRPs as the router reads them ({@code routes["cf-router"]}: hostnames and a container port),
 * each with the instances it reaches: RUNNING ones (a drain's or a deployment's twin too, listed evacuating) at the host
 * port of the route's port. Pure: made from the API's desired and actual LRPs.
 */
record RouteList(List<Route> routes) {

    /** One hostname of one LRP, and where its requests go. */
    record Route(String hostname, String processGuid, int port, List<Instance> instances) {
    }

    /** An instance a route reaches. */
    record Instance(int index, String address, int hostPort, boolean evacuating) {

        String where() {
            return address + ":" + hostPort + (evacuating ? " (evacuating)" : "");
        }
    }

    static RouteList of(List<JsonNode> desired, List<JsonNode> actuals) {
        List<Route> routes = new ArrayList<>();
        for (JsonNode lrp : desired) {
            String guid = lrp.path("process_guid").asString();
            for (JsonNode route : lrp.path("routes").path("cf-router")) {
                int port = route.path("port").asInt(0);
                List<Instance> instances = instances(guid, port, actuals);
                for (JsonNode hostname : route.path("hostnames")) {
                    routes.add(new Route(hostname.asString().toLowerCase(Locale.ROOT), guid, port, instances));
                }
            }
        }
        routes.sort(Comparator.comparing(Route::hostname).thenComparing(Route::processGuid));
        return new RouteList(routes);
    }

    private static List<Instance> instances(String guid, int port, List<JsonNode> actuals) {
        List<Instance> instances = new ArrayList<>();
        for (JsonNode actual : actuals) {
            if (!guid.equals(actual.path("process_guid").asString())
                    || !"RUNNING".equals(actual.path("state").asString())) {
                continue;
            }
            for (JsonNode mapping : actual.path("ports")) {
                if (mapping.path("container_port").asInt(-1) == port) {
                    instances.add(new Instance(actual.path("index").asInt(), actual.path("address").asString(),
                            mapping.path("host_port").asInt(), actual.path("evacuating").asBoolean()));
                }
            }
        }
        instances.sort(Comparator.comparingInt(Instance::index).thenComparing(Instance::evacuating));
        return instances;
    }
}
