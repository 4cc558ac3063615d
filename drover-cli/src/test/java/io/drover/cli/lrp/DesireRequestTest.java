package io.drover.cli.lrp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.cli.session.UsageException;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DesireRequestTest {

    @Test
    void flagsBecomeADesiredLrp() {
        String json = request(List.of(8080), List.of("A=1", "B=x=y"), "http:/health",
                List.of("sh", "-c", "exec python3 -m http.server $PORT")).toJson().toString();
        assertThat(json).isEqualTo("{\"process_guid\":\"web\",\"domain\":\"default\",\"rootfs\":\"preloaded:host\","
                + "\"instances\":3,\"memory_mb\":128,\"disk_mb\":256,\"ports\":[8080],\"env\":[{\"name\":\"A\","
                + "\"value\":\"1\"},{\"name\":\"B\",\"value\":\"x=y\"}],\"action\":{\"run\":{\"path\":\"sh\","
                + "\"args\":[\"-c\",\"exec python3 -m http.server $PORT\"]}},\"check_definition\":{\"checks\":"
                + "[{\"http_check\":{\"port\":8080,\"path\":\"/health\"}}]}}");
    }

    @Test
    void tcpChecksTheFirstPortAndNoneChecksNothing() {
        assertThat(request(List.of(9000, 9001), List.of(), "tcp", List.of("x")).toJson().path("check_definition")
                .toString()).isEqualTo("{\"checks\":[{\"tcp_check\":{\"port\":9000}}]}");
        assertThat(request(List.of(9000), List.of(), "none", List.of("x")).toJson().has("check_definition")).isFalse();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "8080 | A=1  | tcp      | ''    | what should run?",
            "''   | A=1  | tcp      | sleep | --check needs a --port",
            "8080 | A    | ''       | sleep | --env takes NAME=VALUE",
            "8080 | =1   | ''       | sleep | --env takes NAME=VALUE",
            "8080 | A=1  | http:x   | sleep | --check takes tcp, http:/PATH or none",
            "8080 | A=1  | udp      | sleep | --check takes tcp, http:/PATH or none" })
    void saysWhatIsWrong(String port, String env, String check, String command, String message) {
        DesireRequest request = request(port.isEmpty() ? List.of() : List.of(Integer.parseInt(port)), List.of(env),
                check.isEmpty() ? null : check, command.isEmpty() ? List.of() : List.of(command));
        assertThatThrownBy(request::toJson).isInstanceOf(UsageException.class).hasMessageContaining(message);
    }

    private static DesireRequest request(List<Integer> ports, List<String> env, String check, List<String> command) {
        return new DesireRequest("web", 3, 128, 256, ports, env, check, "default", "preloaded:host", 0, command);
    }
}
