package io.drover.receptor.task;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Where a completion callback may be sent (SPEC 13), as one pure decision over the URL's host, port and addresses:
 * <ol>
 * <li>never to a service of the cluster itself (the receptors, the reps' log servers, PostgreSQL, Kafka: the
 * {@code cluster} endpoints), whatever the allow-list says;</li>
 * <li>only to a host the allow-list admits: its entries are {@code *} (any host not refused below), host names,
 * {@code *.suffix} names, IP addresses and CIDR ranges, each but {@code *} and a range optionally with a
 * {@code :port} (an IPv6 address then in brackets). The default, {@code *}, admits any host;</li>
 * <li>never to a loopback, link-local (169.254.0.0/16, fe80::/10: cloud metadata lives there), wildcard or multicast
 * address, nor to {@code localhost}, unless an entry other than {@code *} names it: an operator widens the default
 * with {@code *, 127.0.0.1:9000}, or narrows it with {@code hooks.example.com, 10.1.0.0/16}.</li>
 * </ol>
 * A host whose name the receptor cannot resolve is judged by its name alone.
 */
final class CallbackTargets {

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private final List<Entry> allowed;
    private final boolean anyHost;

    CallbackTargets(List<String> allowList) {
        this.allowed = allowList.stream().map(String::trim).filter(e -> !e.isEmpty() && !e.equals("*"))
                .map(Entry::parse).toList();
        this.anyHost = allowList.stream().map(String::trim).anyMatch("*"::equals);
    }

    /** Where a callback URL points: its host (no brackets), its port (the scheme's by default), its addresses. */
    record Target(String host, int port, List<InetAddress> addresses) {
    }

    /** A service of the cluster: a host name (may be null) and its address (may be null), on a port. */
    record Endpoint(String host, InetAddress address, int port) {
    }

    /**
     * The cluster's services as a callback is checked against them: by host name and port, and by address and port.
     * Built once for each change of the endpoints (with 10,000 cells, their log servers are 10,000 of them), so that a
     * submission's check is two look-ups per address, not a walk over every endpoint.
     */
    static final class Services {

        private final Set<String> names = new HashSet<>();
        private final Set<InetSocketAddress> addresses = new HashSet<>();

        static Services of(Collection<Endpoint> endpoints) {
            Services services = new Services();
            for (Endpoint endpoint : endpoints) {
                if (endpoint.host() != null) {
                    services.names.add(name(endpoint.host(), endpoint.port()));
                }
                if (endpoint.address() != null) {
                    services.addresses.add(new InetSocketAddress(endpoint.address(), endpoint.port()));
                }
            }
            return services;
        }

        boolean include(Target target) {
            if (names.contains(name(target.host(), target.port()))) {
                return true;
            }
            for (InetAddress address : target.addresses()) {
                if (addresses.contains(new InetSocketAddress(address, target.port()))) {
                    return true;
                }
            }
            return false;
        }

        private static String name(String host, int port) {
            return host.toLowerCase(Locale.ROOT) + ":" + port;
        }
    }

    /** Why the callback may not go to {@code target}; empty when it may. */
    Optional<String> refusal(Target target, Services cluster) {
        if (cluster.include(target)) {
            return Optional.of("a service of the cluster itself (" + target.host() + ":" + target.port() + ")");
        }
        boolean named = allowed.stream().anyMatch(e -> e.matches(target));
        if (!named && !anyHost) {
            return Optional.of("host not in drover.receptor.tasks.callback-allowed-hosts");
        }
        if (!named) {
            Optional<String> local = internal(target);
            if (local.isPresent()) {
                return Optional.of(local.get() + " (allow it in drover.receptor.tasks.callback-allowed-hosts)");
            }
        }
        return Optional.empty();
    }

    private static Optional<String> internal(Target target) {
        String host = target.host().toLowerCase(Locale.ROOT);
        if (host.equals("localhost") || host.endsWith(".localhost")) {
            return Optional.of("a loopback host");
        }
        for (InetAddress address : target.addresses()) {
            if (address.isLoopbackAddress()) {
                return Optional.of("a loopback address");
            }
            if (address.isLinkLocalAddress()) {
                return Optional.of("a link-local address");
            }
            if (address.isAnyLocalAddress()) {
                return Optional.of("a wildcard address");
            }
            if (address.isMulticastAddress()) {
                return Optional.of("a multicast address");
            }
        }
        return Optional.empty();
    }

    /** An IP address literal (IPv4 dotted, or IPv6 with colons), without asking DNS; null for a name. */
    static InetAddress literal(String host) {
        if (!IPV4.matcher(host).matches() && !host.contains(":")) {
            return null;
        }
        try {
            return InetAddress.getByName(host);
        } catch (UnknownHostException e) {
            return null;
        }
    }

    /** One allow-list entry: a name, a {@code *.suffix}, an address or a range; any port unless one is given. */
    private record Entry(String name, String suffix, InetAddress address, int prefix, int port) {

        static Entry parse(String entry) {
            if (entry.contains("/")) {
                int slash = entry.indexOf('/');
                InetAddress network = literal(entry.substring(0, slash));
                if (network == null) {
                    throw new IllegalArgumentException("not a CIDR range in callback-allowed-hosts: " + entry);
                }
                return new Entry(null, null, network, Integer.parseInt(entry.substring(slash + 1)), -1);
            }
            String host = entry;
            int port = -1;
            if (entry.startsWith("[")) {
                int close = entry.indexOf(']');
                host = entry.substring(1, close);
                port = close + 1 < entry.length() ? Integer.parseInt(entry.substring(close + 2)) : -1;
            } else if (entry.indexOf(':') > 0 && entry.indexOf(':') == entry.lastIndexOf(':')) {
                host = entry.substring(0, entry.indexOf(':'));
                port = Integer.parseInt(entry.substring(entry.indexOf(':') + 1));
            }
            InetAddress address = literal(host);
            if (address != null) {
                return new Entry(null, null, address, address.getAddress().length * 8, port);
            }
            String lower = host.toLowerCase(Locale.ROOT);
            return lower.startsWith("*.") ? new Entry(null, lower.substring(1), null, 0, port)
                    : new Entry(lower, null, null, 0, port);
        }

        boolean matches(Target target) {
            if (port >= 0 && port != target.port()) {
                return false;
            }
            String host = target.host().toLowerCase(Locale.ROOT);
            if (name != null) {
                return host.equals(name);
            }
            if (suffix != null) {
                return host.endsWith(suffix);
            }
            return target.addresses().stream().anyMatch(this::contains);
        }

        private boolean contains(InetAddress candidate) {
            byte[] net = address.getAddress();
            byte[] ip = candidate.getAddress();
            if (net.length != ip.length) {
                return false;
            }
            for (int bit = 0; bit < prefix; bit++) {
                int mask = 0x80 >>> (bit % 8);
                if ((net[bit / 8] & mask) != (ip[bit / 8] & mask)) {
                    return false;
                }
            }
            return true;
        }
    }
}
