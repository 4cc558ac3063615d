package io.drover.cluster.console;

/** What the terminal shows once the cluster is up: where it is, how to log in, and three commands to try. */
public final class Banner {

    /** Where the drover command line looks for the local cluster's connection by itself (relative to where it runs). */
    private static final String DEFAULT_ENV = ".drover/local/cluster.env";

    private Banner() {
    }

    /**
     * Prints the banner, the password in it, and logs it with the password left out: every terminal line also goes to
     * the log file, and a password has no business in a log (SPEC 5.5).
     */
    public static void show(Terminal terminal, long seconds, String url, String routerUrl, String user,
            String password, String kafka, String env) {
        terminal.block(text(seconds, url, routerUrl, user, password, kafka, env),
                text(seconds, url, routerUrl, user, "(not logged; in " + env + ")", kafka, env));
    }

    /**
     * @param env the cluster.env file as the user should type it; the {@code ./drover} commands need it sourced only
     *     when it is not the default one, which the command line finds by itself
     */
    public static String text(long seconds, String url, String routerUrl, String user, String password, String kafka,
            String env) {
        String source = env.equals(DEFAULT_ENV) ? "" : "source " + env + " && ";
        return String.format("""

                  Drover is up (%d s).

                    receptor  %s   (Swagger UI: %s/swagger-ui.html)
                    dashboard %s/ui   (log in with the user and password below)
                    router    %s   (requests by Host to the LRPs' routes)
                    user      %s
                    password  %s
                    kafka     %s

                  Next, in another terminal:
                    %s./drover desire web -i 3 -p 8080 -- sh -c 'exec python3 -m http.server --bind 127.0.0.1 "$PORT"'
                    %s./drover status web
                    %s./drover events
                  For curl: source %s (README.md: "The same through the REST API").

                  Cluster events follow here; Ctrl-C stops everything.

                """, seconds, url, url, url, routerUrl, user, password, kafka, source, source, source, env);
    }
}
