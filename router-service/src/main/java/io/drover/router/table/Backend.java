package io.drover.router.table;

/**
 * One instance a route sends requests to: the host address and port its container port is published on. {@code base}
 * is {@code http://address:port}, made once per table change instead of once per request.
 */
public record Backend(String processGuid, int index, String instanceGuid, String address, int port,
        boolean evacuating, String base) {

    public Backend(String processGuid, int index, String instanceGuid, String address, int port, boolean evacuating) {
        this(processGuid, index, instanceGuid, address, port, evacuating, "http://" + hostPart(address) + ":" + port);
    }

    private static String hostPart(String address) {
        return address.indexOf(':') >= 0 && !address.startsWith("[") ? "[" + address + "]" : address;
    }
}
