package io.drover.cli.json;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class JsonTest {

    @ParameterizedTest
    @ValueSource(strings = { "{}", "[]", "\"\"", "0", "-12.5e-3", "true", "false", "null",
            "{\"a\":1,\"b\":[true,null,\"x\"],\"c\":{\"d\":{}}}", "[[],[[]],{}]",
            "\"quote \\\" backslash \\\\ newline \\n tab \\t control \\u0001\"", "\"é ü 日本 😀\"" })
    void whatItReadsItWritesBackTheSame(String text) {
        assertThat(Json.parse(text).toString()).isEqualTo(text);
    }

    @Test
    void spaceAndEscapesAreReadAsJsonMeansThem() {
        JsonNode node = Json.parse(" { \"a\" :\n[ 1 , 2 ] ,\t\"s\": \"\\u00e9\\/\\ud83d\\ude00\" } ");
        assertThat(node.toString()).isEqualTo("{\"a\":[1,2],\"s\":\"é/😀\"}");
        assertThat(node.path("s").asString()).isEqualTo("é/😀");
    }

    @ParameterizedTest
    @ValueSource(strings = { "", " ", "{", "[1,]", "{\"a\"}", "{\"a\":1,}", "{a:1}", "'x'", "tru", "nul", "01x",
            "-", "1.", "1e", "\"unterminated", "\"bad \\x escape\"", "\"short \\u12\"", "{} {}", "[1] x",
            "\"raw\ncontrol\"" })
    void anythingElseIsNotJsonAndSaysWhere(String text) {
        assertThatThrownBy(() -> Json.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("not JSON: ");
    }

    @Test
    void nestingIsBounded() {
        String deep = "[".repeat(Json.MOST_DEPTH + 2) + "]".repeat(Json.MOST_DEPTH + 2);
        assertThatThrownBy(() -> Json.parse(deep)).hasMessageContaining("nested deeper");
        String fine = "[".repeat(100) + "]".repeat(100);
        assertThat(Json.parse(fine).toString()).isEqualTo(fine);
    }

    @Test
    void readingAMissingFieldGivesEmptyValuesNotErrors() {
        JsonNode lrp = Json.parse("{\"process_guid\":\"web\",\"instances\":3,\"note\":null,\"since\":\"17\","
                + "\"ports\":[{\"host_port\":61000}],\"ok\":true}");
        assertThat(lrp.path("process_guid").asString()).isEqualTo("web");
        assertThat(lrp.path("instances").asInt()).isEqualTo(3);
        assertThat(lrp.path("since").asLong()).isEqualTo(17);
        assertThat(lrp.path("ports").path(0).path("host_port").asInt()).isEqualTo(61000);
        assertThat(lrp.path("ok").asBoolean()).isTrue();
        assertThat(lrp.path("missing").path("deeper").asString()).isEmpty();
        assertThat(lrp.path("missing").asInt()).isZero();
        assertThat(lrp.path("missing").asString("?")).isEqualTo("?");
        assertThat(lrp.path("note").asString("?")).isEqualTo("?");
        assertThat(lrp.path("note").isNull()).isTrue();
        assertThat(lrp.get("missing")).isNull();
        assertThat(lrp.has("note")).isTrue();
        assertThat(lrp.hasNonNull("note")).isFalse();
        assertThat(lrp.path("ports").size()).isEqualTo(1);
        assertThat(lrp.size()).isEqualTo(6);
    }

    @Test
    void builtNodesWriteCompactJsonInTheOrderTheyWerePut() {
        ObjectNode lrp = Json.object().put("process_guid", "web").put("instances", 2).put("evacuating", false)
                .put("note", (String) null);
        lrp.putArray("ports").add(8080).add(9090);
        lrp.putObject("action").putObject("run").put("path", "sh").putArray("args").add("-c").add("echo \"hi\"");
        lrp.putArray("env").addObject().put("name", "A").put("value", "1");
        assertThat(lrp.toString()).isEqualTo("{\"process_guid\":\"web\",\"instances\":2,\"evacuating\":false,"
                + "\"note\":null,\"ports\":[8080,9090],\"action\":{\"run\":{\"path\":\"sh\",\"args\":[\"-c\","
                + "\"echo \\\"hi\\\"\"]}},\"env\":[{\"name\":\"A\",\"value\":\"1\"}]}");
        assertThat(Json.parse(lrp.toString())).isEqualTo(lrp);
    }
}
