package io.drover.router.proxy;

import java.io.IOException;
import java.net.ConnectException;
import java.net.NoRouteToHostException;
import java.net.UnknownHostException;
import java.nio.channels.UnresolvedAddressException;
import org.springframework.http.HttpMethod;
import org.springframework.http.HttpHeaders;
import org.springframework.http.server.reactive.ServerHttpRequest;
import org.springframework.web.server.ResponseStatusException;

/** What went wrong on the way to an instance, and whether another instance may be tried. */
enum Failure {

    /** The connection was never made: the request never reached the instance. Retried for any method. */
    CONNECT,
    /**
     * The connection closed, was reset or failed otherwise before any byte of the response reached the client.
     * Retried for idempotent requests with no body.
     */
    RESET,
    /** No response within the response timeout. */
    TIMEOUT,
    /** Anything else. */
    OTHER;

    /**
     * The cause chain is read twice: a connect failure anywhere in it (however wrapped) first, then a connection lost
     * afterwards: reset, closed early (a pooled connection to an instance that exited: reactor's
     * {@code PrematureCloseException}, {@code AbortedException}), or any other I/O error on it.
     */
    static Failure of(Throwable error) {
        for (Throwable e = error; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof ConnectException || e instanceof NoRouteToHostException
                    || e instanceof UnresolvedAddressException || e instanceof UnknownHostException
                    || e.getClass().getName().equals("io.netty.channel.ConnectTimeoutException")) {
                return CONNECT;
            }
        }
        for (Throwable e = error; e != null; e = e.getCause() == e ? null : e.getCause()) {
            if (e instanceof ResponseStatusException status && status.getStatusCode().value() == 504) {
                return TIMEOUT;
            }
            String name = e.getClass().getName();
            if (name.equals("reactor.netty.http.client.PrematureCloseException")
                    || name.equals("reactor.netty.channel.AbortedException") || e instanceof IOException) {
                return RESET;
            }
        }
        return OTHER;
    }

    /** Whether {@code request} may go to another instance after this failure. */
    boolean retryable(ServerHttpRequest request) {
        return this == CONNECT || (this == RESET && idempotent(request.getMethod()) && bodiless(request.getHeaders()));
    }

    String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    private static boolean idempotent(HttpMethod method) {
        return method == HttpMethod.GET || method == HttpMethod.HEAD || method == HttpMethod.OPTIONS
                || method == HttpMethod.TRACE || method == HttpMethod.PUT || method == HttpMethod.DELETE;
    }

    /** A body was sent on and cannot be sent again (it is not kept). */
    private static boolean bodiless(HttpHeaders headers) {
        return !headers.containsHeader(HttpHeaders.TRANSFER_ENCODING) && headers.getContentLength() <= 0;
    }
}
