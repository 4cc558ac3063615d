package io.drover.receptor.web;

import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletResponse;
import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import org.springframework.core.Ordered;
import org.springframework.http.HttpHeaders;
import org.springframework.http.MediaType;
import org.springframework.stereotype.Component;
import org.springframework.web.HttpRequestHandler;
import org.springframework.web.filter.ServerHttpObservationFilter;
import org.springframework.web.method.HandlerMethod;
import org.springframework.web.servlet.HandlerAdapter;
import org.springframework.web.servlet.HandlerExecutionChain;
import org.springframework.web.servlet.HandlerMapping;
import org.springframework.web.servlet.ModelAndView;

/**
 * The hot reads (one desired LRP, the instances of one, one instance: what pollers ask all day) dispatched without
 * Spring MVC's general machinery: matching the path against every mapping, converting each path variable through a
 * data binder, selecting a return value handler. A {@link Route} recognises its exact path shape and serves it; anything
 * else (another method, a path outside the grammar, an Accept header that rules JSON out) falls through to the
 * annotated controller methods, which answer it exactly as before. Errors still go to the API's exception handler.
 */
@Component
public class FastReads implements HandlerMapping, Ordered {

    private final List<Route> routes;

    FastReads(List<Route> routes) {
        this.routes = List.copyOf(routes);
    }

    /** Reads of one resource served on the fast path. */
    public interface Route {

        /** How to serve a GET of {@code path}, or null when this route does not serve that path. */
        Match match(String path);
    }

    /**
     * @param pattern the path pattern metrics tag the request with ({@code uri} of {@code http.server.requests})
     * @param handler what serves it
     */
    public record Match(String pattern, Handler handler) {
    }

    /**
     * A fast handler. It is a {@link HandlerMethod} of the controller method that serves the same read on the general
     * path, so whatever it throws is answered by the same exception handlers (the API's error shape); {@link Adapter}
     * calls {@code serve} directly instead of resolving the method's arguments.
     */
    public static final class Handler extends HandlerMethod {

        private final HttpRequestHandler serve;

        public Handler(Object controller, String method, HttpRequestHandler serve) {
            super(controller, controllerMethod(controller.getClass(), method));
            this.serve = serve;
        }

        private static Method controllerMethod(Class<?> type, String name) {
            return Arrays.stream(type.getDeclaredMethods()).filter(m -> m.getName().equals(name)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException(type + " has no method " + name));
        }
    }

    /** Runs {@link Handler}s; ahead of Spring MVC's adapters, which would resolve their arguments. */
    @Component
    static class Adapter implements HandlerAdapter, Ordered {

        @Override
        public boolean supports(Object handler) {
            return handler instanceof Handler;
        }

        @Override
        public ModelAndView handle(HttpServletRequest request, HttpServletResponse response, Object handler)
                throws Exception {
            ((Handler) handler).serve.handleRequest(request, response);
            return null;
        }

        @Override
        public int getOrder() {
            return Ordered.HIGHEST_PRECEDENCE;
        }
    }

    @Override
    public HandlerExecutionChain getHandler(HttpServletRequest request) {
        if (!"GET".equals(request.getMethod()) || !acceptsJson(request.getHeader(HttpHeaders.ACCEPT))) {
            return null;
        }
        String path = request.getRequestURI();
        for (Route route : routes) {
            Match match = route.match(path);
            if (match != null) {
                request.setAttribute(BEST_MATCHING_PATTERN_ATTRIBUTE, match.pattern());
                ServerHttpObservationFilter.findObservationContext(request)
                        .ifPresent(context -> context.setPathPattern(match.pattern()));
                return new HandlerExecutionChain(match.handler());
            }
        }
        return null;
    }

    static boolean acceptsJson(String accept) {
        if (accept == null || accept.equals("*/*") || accept.equals(MediaType.APPLICATION_JSON_VALUE)) {
            return true;
        }
        try {
            return MediaType.parseMediaTypes(accept).stream()
                    .anyMatch(m -> m.includes(MediaType.APPLICATION_JSON) && m.getQualityValue() > 0);
        } catch (RuntimeException malformed) {
            return false;
        }
    }

    /** The process_guid of {@code path} when it is exactly {@code prefix} + a valid guid + {@code suffix}, else null. */
    public static String guidBetween(String path, String prefix, String suffix) {
        if (!path.startsWith(prefix) || !path.endsWith(suffix) || path.length() <= prefix.length() + suffix.length()) {
            return null;
        }
        String guid = path.substring(prefix.length(), path.length() - suffix.length());
        return ProcessGuids.isValid(guid) ? guid : null;
    }

    @Override
    public int getOrder() {
        return Ordered.HIGHEST_PRECEDENCE;
    }
}
