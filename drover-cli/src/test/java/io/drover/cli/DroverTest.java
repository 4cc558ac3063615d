package io.drover.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Exit codes and messages that need no receptor: usage errors (2), a missing configuration (2), no answer (1). */
class DroverTest {

    @TempDir
    Path dir;

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "''                             | which command?                       | Usage: drover [-hV]",
            "scale web                      | Missing required parameter: 'INSTANCES' | Usage: drover scale",
            "scale web many                 | Invalid value for positional parameter | Usage: drover scale",
            "-o yaml domains                | expected one of [table, json]        | Usage: drover [-hV]",
            "domains -o yaml                | expected one of [table, json]        | Usage: drover domains",
            "frobnicate                     | Unmatched argument                   | Usage: drover [-hV]",
            "desire web                     | what should run?                     | Usage: drover desire",
            "desire web --check tcp -- x    | --check needs a --port               | Usage: drover desire",
            "desire -f missing.json         | cannot read missing.json             | Usage: drover desire",
            "desire -f lrp.json -i 3        | drop --instances                     | Usage: drover desire",
            "events --type bogus            | unknown event type 'bogus'           | Usage: drover events",
            "events --for forever           | --for takes a duration               | Usage: drover events",
            "logs web --stream console      | --stream takes stdout, stderr or rep | Usage: drover logs",
            "logs web --previous            | --previous needs --index             | Usage: drover logs",
            "events --since 10m --last 5    | give one of --since, --last and --after | Usage: drover events",
            "events --since yesterday       | --since takes a duration             | Usage: drover events",
            "tasks --state DONE             | --state takes PENDING, RUNNING       | Usage: drover tasks",
            "task                           | which task command?                  | Usage: drover task",
            "task submit job                | what should run?                     | Usage: drover task submit",
            "task submit                    | give the GUID of the task            | Usage: drover task submit",
            "task submit job --timeout x -- true | --timeout takes a duration     | Usage: drover task submit",
            "task get                       | Missing required parameter: 'GUID'   | Usage: drover task get",
            "deploy web                     | what changes?                        | Usage: drover deploy",
            "deploy web --max-surge lots -m 64 | --max-surge takes a count        | Usage: drover deploy",
            "rollout                        | which rollout command?               | Usage: drover rollout",
            "rollout pause                  | Missing required parameter: 'NAME'   | Usage: drover rollout pause",
            "rollout frobnicate web         | Unmatched argument                   | Usage: drover rollout",
            "drain                          | Missing required parameter: 'CELL'   | Usage: drover drain",
            "drain cell-z1 --deadline soon  | --deadline takes a duration          | Usage: drover drain",
            "drain cell-z1 --timeout 5m     | --timeout needs --wait               | Usage: drover drain",
            "undrain                        | Missing required parameter: 'CELL'   | Usage: drover undrain" })
    void usageErrorsExitTwoWithWhatIsWrongAndTheUsageLine(String args, String message, String usage) {
        Run run = run(Map.of("DROVER_URL", "http://127.0.0.1:9"), args.isEmpty() ? new String[0] : args.split(" "));
        assertThat(run.exit).isEqualTo(2);
        assertThat(run.err).contains(message).contains(usage).doesNotContain("Exception", "\tat ");
    }

    @ParameterizedTest
    @CsvSource(nullValues = "null", delimiter = '|', value = {
            "status web             | status",
            "-o json cells          | cells",
            "--output json cells    | cells",
            "-ojson cells           | cells",
            "--output=json list     | list",
            "cells -o json          | cells",
            "--help                 | null",
            "-h status              | null",
            "completion             | null",
            "frobnicate             | null",
            "''                     | null" })
    void onlyTheCommandThatRunsIsMade(String args, String wanted) {
        assertThat(Drover.wanted(args.isEmpty() ? new String[0] : args.split(" "))).isEqualTo(wanted);
    }

    @Test
    void withNothingSayingWhereTheReceptorIsItSaysWhatToSet() {
        Run run = run(Map.of(), "list");
        assertThat(run.exit).isEqualTo(2);
        assertThat(run.err).contains("no receptor configured: set DROVER_URL");
    }

    @Test
    void aReceptorThatDoesNotAnswerIsAnApiError() throws IOException {
        int port;
        try (ServerSocket socket = new ServerSocket(0)) {
            port = socket.getLocalPort();
        }
        Run run = run(Map.of("DROVER_URL", "http://127.0.0.1:" + port, "DROVER_PASSWORD", "hidden"), "cells");
        assertThat(run.exit).isEqualTo(1);
        assertThat(run.err).startsWith("ReceptorUnreachable: cannot reach the receptor at http://127.0.0.1:" + port)
                .doesNotContain("hidden");
    }

    @Test
    void helpAndCompletionNeedNoReceptor() {
        Run help = run(Map.of(), "--help");
        assertThat(help.exit).isZero();
        assertThat(help.out).contains("desire", "visualize", "tasks", "task", "deploy", "rollout", "drain", "undrain",
                "Exit codes: 0 ok, 1 API error, 2 usage error.");
        Run completion = run(Map.of(), "completion");
        assertThat(completion.exit).isZero();
        assertThat(completion.out).contains("complete -F", "drover");
    }

    private Run run(Map<String, String> env, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try {
            java.nio.file.Files.writeString(dir.resolve("lrp.json"), "{\"process_guid\":\"web\"}");
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        int exit = Drover.run(args, env, dir, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false);
        return new Run(exit, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    private record Run(int exit, String out, String err) {
    }
}
