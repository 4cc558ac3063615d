package io.drover.rep.executor.container;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The network namespaces of the instances (Diego's model): each gets a namespace of its own named after it, with a veth
 * pair whose host end has the block's first address and whose instance end is {@code eth0} with the second, and its
 * own loopback. There is no default route and no NAT: the instance reaches nothing but itself and its host end, so
 * the cell's loopback services (the rep's admin and log ports, PostgreSQL, Kafka) are out of reach. Which block an
 * instance holds is kept in its bundle ({@code network}), so a restarted rep finds it again.
 */
final class InstanceNetwork {

    private final Subnet subnet;

    private final Path bundleDir;

    InstanceNetwork(Subnet subnet, Path bundleDir) {
        this.subnet = subnet;
        this.bundleDir = bundleDir;
        reserveExisting();
    }

    /** An instance's network: its namespace (for the runtime), host end and address. */
    record Attached(String namespace, String hostInterface, String hostAddress, String address, int block) {

        String namespacePath() {
            return "/run/netns/" + namespace;
        }
    }

    /** Makes the instance's namespace and veth pair, and records its block in the bundle. */
    Attached attach(Path bundle, String id) throws IOException {
        int block = subnet.allocate();
        Attached net = attached(id, block);
        String peer = "dp" + net.hostInterface().substring(2);
        try {
            Files.writeString(bundle.resolve("network"), Integer.toString(block));
            Commands.run(List.of("ip", "-batch", "-"), String.join("\n",
                    "netns add " + net.namespace(),
                    "link add " + net.hostInterface() + " type veth peer name " + peer + " netns " + net.namespace(),
                    "addr add " + net.hostAddress() + "/30 dev " + net.hostInterface(),
                    "link set " + net.hostInterface() + " up") + "\n");
            Commands.run(List.of("ip", "-n", net.namespace(), "-batch", "-"), String.join("\n",
                    "link set lo up",
                    "link set " + peer + " name eth0",
                    "addr add " + net.address() + "/30 dev eth0",
                    "link set eth0 up") + "\n");
            return net;
        } catch (IOException | RuntimeException e) {
            detach(bundle, id);
            throw new IOException("cannot make the instance's network: " + e.getMessage(), e);
        }
    }

    /** The network of an instance made earlier (by this rep or a previous one), from its bundle. */
    Optional<Attached> find(Path bundle, String id) {
        return block(bundle).map(block -> attached(id, block));
    }

    /** Removes the namespace and veth pair and frees the block; nothing to do for an instance without one. */
    void detach(Path bundle, String id) {
        Optional<Integer> block = block(bundle);
        Attached net = attached(id, block.orElse(0));
        Commands.quietly("ip", "netns", "del", net.namespace());
        Commands.quietly("ip", "link", "del", net.hostInterface());
        try {
            Files.deleteIfExists(bundle.resolve("network"));
        } catch (IOException e) {
            // the bundle goes with the instance anyway
        }
        block.ifPresent(subnet::release);
    }

    private Attached attached(String id, int block) {
        String hash = hash(id);
        return new Attached("drover-" + id, "dv" + hash, subnet.hostAddress(block), subnet.instanceAddress(block),
                block);
    }

    /** Interface names have at most 15 characters: the host end is "dv" and 12 hex digits of the id's hash. */
    private static String hash(String id) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(id.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest).substring(0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Optional<Integer> block(Path bundle) {
        try {
            return Optional.of(Integer.parseInt(Files.readString(bundle.resolve("network")).strip()));
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    /** Blocks held by instances a previous rep left (their bundles say so) are not handed out again. */
    private void reserveExisting() {
        if (!Files.isDirectory(bundleDir)) {
            return;
        }
        try (Stream<Path> cells = Files.list(bundleDir)) {
            for (Path cell : cells.filter(Files::isDirectory).toList()) {
                try (Stream<Path> bundles = Files.list(cell)) {
                    bundles.map(InstanceNetwork::block).flatMap(Optional::stream).forEach(subnet::reserve);
                }
            }
        } catch (IOException e) {
            // nothing to reserve
        }
    }
}
