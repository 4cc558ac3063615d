package io.drover.cluster.console;

/** What the terminal shows once the cluster is up: where it is, how to log in, and three commands to try. */
public final class Banner {

    private Banner() {
    }

    /**
     * @param env the cluster.env file as the user should type it
     * @param example an LRP definition file (a web server) as the user should type it
     */
    public static String text(long seconds, String url, String user, String password, String kafka, String env,
            String example) {
        String curl = "curl -su \"$DROVER_USER:$DROVER_PASSWORD\"";
        return String.format("""

                  Drover is up (%d s).

                    receptor  %s   (Swagger UI: %s/swagger-ui.html)
                    user      %s
                    password  %s
                    kafka     %s

                  Next, in another terminal:
                    source %s
                    %s -H 'Content-Type: application/json' "$DROVER_URL/v1/desired_lrps" -d @%s
                    %s "$DROVER_URL/v1/actual_lrps/web"

                  Cluster events follow here; Ctrl-C stops everything.

                """, seconds, url, url, user, password, kafka, env, curl, example, curl);
    }
}
