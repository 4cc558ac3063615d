package io.drover.receptor.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.model.json.Json;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class UnicodeTextTest {

    @Test
    void onlyStrictUtf8Decodes() {
        assertThat(UnicodeText.decodeUtf8("h\u00e9 \u4e2d \ud83d\udca9".getBytes(StandardCharsets.UTF_8)))
                .isEqualTo("h\u00e9 \u4e2d \ud83d\udca9");
        byte[][] invalid = { { (byte) 0xC0, (byte) 0xAF }, { (byte) 0xE0, (byte) 0x80, (byte) 0xAF },
                { (byte) 0xED, (byte) 0xA0, (byte) 0x80 }, { (byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80 },
                { (byte) 0xF8, (byte) 0x88, (byte) 0x80, (byte) 0x80, (byte) 0x80 }, { (byte) 0xFF }, { (byte) 0x80 },
                { (byte) 0xE2, (byte) 0x82 }, { 'a', (byte) 0xC3 } };
        for (byte[] bytes : invalid) {
            assertThat(UnicodeText.decodeUtf8(bytes)).as("%s", java.util.HexFormat.of().formatHex(bytes)).isNull();
        }
    }

    @Test
    void loneSurrogatesAnywhereInATreeAreNotText() {
        assertThat(UnicodeText.isWellFormed(Json.tree("{\"a\": [\"\\ud83d\\udca9\", {\"b\": \"x\"}], \"n\": 1}"))).isTrue();
        for (String json : new String[] { "{\"a\": \"\\ud800\"}", "{\"a\": \"\\udfff\"}", "{\"a\": \"x\\ud83d\"}",
                "{\"a\": \"\\ude00\\ud83d\"}", "{\"\\ud800\": 1}", "{\"a\": [1, {\"b\": [\"\\udbffA\"]}]}" }) {
            assertThat(UnicodeText.isWellFormed(Json.tree(json))).as(json).isFalse();
        }
    }
}
