package io.drover.receptor.actuallrp;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.lrp.CrashRestartPolicy;
import io.drover.receptor.web.FastReads;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Which paths the fast path serves (the rest fall through to the controller's mappings, which answer as before). */
class ActualLrpRoutesTest {

    static final ActualLrpRoutes ROUTES = new ActualLrpRoutes(new ActualLrpController(null, null,
            CrashRestartPolicy.defaults()));

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', nullValues = "NULL", value = {
            "/v1/actual_lrps/web                       | /v1/actual_lrps/{processGuid}",
            "/v1/actual_lrps/web/index/0               | /v1/actual_lrps/{processGuid}/index/{index}",
            "/v1/actual_lrps/web/index/123456789       | /v1/actual_lrps/{processGuid}/index/{index}",
            "/v1/actual_lrps/index/index/3             | /v1/actual_lrps/{processGuid}/index/{index}",
            "/v1/actual_lrps                           | NULL",
            "/v1/actual_lrps/                          | NULL",
            "/v1/actual_lrps/web/                      | NULL",
            "/v1/actual_lrps/web/index/                | NULL",
            "/v1/actual_lrps/web/index/abc             | NULL",
            "/v1/actual_lrps/web/index/-1              | NULL",
            "/v1/actual_lrps/web/index/+1              | NULL",
            "/v1/actual_lrps/web/index/1234567890      | NULL",
            "/v1/actual_lrps/web/index/3/x             | NULL",
            "/v1/actual_lrps/a.b/index/1               | NULL",
            "/v1/actual_lrps/a.b                       | NULL",
            "/v1/desired_lrps/web                      | NULL" })
    void servesExactlyTheShapesOfItsTwoReads(String path, String pattern) {
        FastReads.Match match = ROUTES.match(path);
        assertThat(match == null ? null : match.pattern()).isEqualTo(pattern);
    }
}
