package io.drover.model.route;

import java.util.List;

/** One route of a desired LRP: the hostnames (lower case) whose requests go to one of its container ports. */
public record CfRoute(List<String> hostnames, int port) {

    public CfRoute {
        hostnames = List.copyOf(hostnames);
    }
}
