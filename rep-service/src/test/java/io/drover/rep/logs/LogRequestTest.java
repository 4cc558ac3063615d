package io.drover.rep.logs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.rep.executor.LogSource;
import java.util.EnumSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LogRequestTest {

    private static final String PATH = "/v1/cells/cell-z1/instances/ig-1/logs";

    @Test
    void defaultsToTheLastHundredLinesOfEverySourceWithoutFollowing() {
        LogRequest request = LogRequest.parse(PATH, null);
        assertThat(request).isEqualTo(new LogRequest("cell-z1", "ig-1", 100, false, EnumSet.allOf(LogSource.class)));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "tail=5&follow=true&stream=stdout | 5   | true  | STDOUT",
            "tail=0&stream=stderr             | 0   | false | STDERR",
            "follow=false&stream=rep          | 100 | false | REP",
            "tail=100000&stream=std%6Fut      | 100000 | false | STDOUT" })
    void readsTheQuery(String query, int tail, boolean follow, LogSource source) {
        LogRequest request = LogRequest.parse(PATH, query);
        assertThat(request.tail()).isEqualTo(tail);
        assertThat(request.follow()).isEqualTo(follow);
        assertThat(request.sources()).containsExactly(source);
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "/v1/cells/c/instances/i/logs | tail=-1        | tail must be",
            "/v1/cells/c/instances/i/logs | tail=100001    | tail must be",
            "/v1/cells/c/instances/i/logs | tail=ten       | tail must be",
            "/v1/cells/c/instances/i/logs | follow=yes     | follow must be",
            "/v1/cells/c/instances/i/logs | stream=console | stream must be",
            "/v1/cells/c/instances/i/logs | tail=1&tail=2  | given twice",
            "/v1/cells/c/instances/i/logs | tail=%zz       | undecodable",
            "/v1/cells/c/instances//logs  | ''             | no such path",
            "/v1/cells/c/instances/i      | ''             | no such path",
            "/v2/cells/c/instances/i/logs | ''             | no such path" })
    void refusesWhatItCannotServe(String path, String query, String message) {
        assertThatThrownBy(() -> LogRequest.parse(path, query)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining(message);
    }
}
