package io.drover.receptor.web.security;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

/**
 * DNS rebinding: a web page of {@code evil.example} whose name the attacker then points at {@code 127.0.0.1} reaches a
 * receptor listening on loopback from the victim's browser, same-origin as far as the browser can tell, with
 * {@code Host: evil.example}. A receptor that listens on loopback ({@code server.address}) therefore answers only
 * requests addressed to one of its own names: {@code localhost} (and {@code *.localhost}, which browsers resolve to
 * loopback themselves), a loopback address literal, its {@code server.address}, and the names an operator allows
 * ({@code drover.receptor.allowed-hosts}). Pure: a name is never looked up.
 */
final class LoopbackHosts {

    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private final boolean active;
    private final String serverAddress;
    private final List<String> allowed;

    LoopbackHosts(String serverAddress, List<String> allowedHosts) {
        this.active = DevMode.isLoopback(serverAddress);
        this.serverAddress = serverAddress == null ? "" : serverAddress.strip().toLowerCase(Locale.ROOT);
        this.allowed = allowedHosts.stream().map(h -> h.strip().toLowerCase(Locale.ROOT)).toList();
    }

    /** Whether the receptor listens on loopback only, so that the rule applies. */
    boolean active() {
        return active;
    }

    /** Why a request addressed to {@code host} (the Host header's name, without the port) is refused; null if not. */
    String refusal(String host) {
        if (!active || isOwn(host == null ? "" : host.strip().toLowerCase(Locale.ROOT))) {
            return null;
        }
        return "Host '" + shown(host) + "' is not a name of this receptor, which listens on loopback only: address it "
                + "as localhost or 127.0.0.1, or add the name to drover.receptor.allowed-hosts (a page of another name "
                + "that reaches loopback is a DNS rebinding attack)";
    }

    private boolean isOwn(String host) {
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        return bare.equals("localhost") || bare.endsWith(".localhost") || bare.equals(serverAddress)
                || allowed.contains(bare) || isLoopbackLiteral(bare);
    }

    private static boolean isLoopbackLiteral(String host) {
        if (!IPV4.matcher(host).matches() && !host.contains(":")) {
            return false; // a name: never resolved here
        }
        try {
            return InetAddress.getByName(host).isLoopbackAddress(); // a literal: parsed, not looked up
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static String shown(String host) {
        String text = host == null ? "" : host;
        return text.length() > 100 ? text.substring(0, 100) + "..." : text;
    }
}
