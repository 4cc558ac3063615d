package io.drover.receptor.web;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FastReadsTest {

    @ParameterizedTest(name = "Accept [{0}]: {1}")
    @CsvSource(delimiter = '|', nullValues = "NULL", value = {
            "NULL                                   | true",
            "*/*                                    | true",
            "application/json                       | true",
            "application/*                          | true",
            "text/html, application/json;q=0.5      | true",
            "application/xml                        | false",
            "text/*                                 | false",
            "application/json;q=0                   | false",
            "garbage;;;===                          | false" })
    void servesOnlyWhenJsonIsAcceptable(String accept, boolean fast) {
        assertThat(FastReads.acceptsJson(accept)).isEqualTo(fast);
    }

    @ParameterizedTest(name = "{0}: {1}")
    @CsvSource(delimiter = '|', nullValues = "NULL", value = {
            "/v1/desired_lrps/web                    | web",
            "/v1/desired_lrps/Web_1-x                | Web_1-x",
            "/v1/desired_lrps/                       | NULL",
            "/v1/desired_lrps/web/                   | NULL",
            "/v1/desired_lrps/a.b                    | NULL",
            "/v1/desired_lrps/web%2Dx                | NULL",
            "/v1/desired_lrps/web;jsessionid=1       | NULL",
            "/v1/desired_lrpsweb                     | NULL",
            "/v2/desired_lrps/web                    | NULL" })
    void aGuidIsRecognisedOnlyInItsExactShape(String path, String guid) {
        assertThat(FastReads.guidBetween(path, "/v1/desired_lrps/", "")).isEqualTo(guid);
    }
}
