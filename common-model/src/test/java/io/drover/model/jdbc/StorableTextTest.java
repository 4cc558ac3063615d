package io.drover.model.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** What PostgreSQL's text can hold: no NUL, and nothing UTF-8 cannot encode (a lone surrogate). */
class StorableTextTest {

    static final String EMOJI = "\uD83D\uDE80";
    static final String HIGH = "\uD83D";
    static final String LOW = "\uDE80";

    static Stream<Arguments> texts() {
        return Stream.of(
                Arguments.of("ordinary text", "42\n", "42\n"),
                Arguments.of("empty", "", ""),
                Arguments.of("accents and CJK", "héllo 世界", "héllo 世界"),
                Arguments.of("an emoji (a surrogate pair)", "go " + EMOJI + "!", "go " + EMOJI + "!"),
                Arguments.of("a NUL byte", "a\u0000b", "a\uFFFDb"),
                Arguments.of("only NULs", "\u0000\u0000", "\uFFFD\uFFFD"),
                Arguments.of("other control characters stay", "a\tb\u0001c\u007f", "a\tb\u0001c\u007f"),
                Arguments.of("a lone high surrogate", "a" + HIGH + "b", "a\uFFFDb"),
                Arguments.of("a lone low surrogate", "a" + LOW + "b", "a\uFFFDb"),
                Arguments.of("a high surrogate at the end", "ab" + HIGH, "ab\uFFFD"),
                Arguments.of("a reversed pair", LOW + HIGH, "\uFFFD\uFFFD"),
                Arguments.of("two highs, then a pair", HIGH + HIGH + LOW, "\uFFFD" + EMOJI),
                Arguments.of("U+FFFD itself stays", "\uFFFD", "\uFFFD"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("texts")
    void cleansWhatPostgresCannotStoreAndKeepsTheRest(String description, String text, String storable) {
        String cleaned = StorableText.of(text);

        assertThat(cleaned).isEqualTo(storable);
        assertThat(new String(cleaned.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8))
                .as("survives UTF-8 unchanged").isEqualTo(cleaned);
    }

    static Stream<Arguments> capped() {
        return Stream.of(
                Arguments.of("shorter than the cap", "abc", 5, "abc"),
                Arguments.of("exactly the cap", "abcde", 5, "abcde"),
                Arguments.of("longer than the cap", "abcdefgh", 5, "abcde"),
                Arguments.of("a cap that would split a pair cuts before it", "abcd" + EMOJI, 5, "abcd"),
                Arguments.of("a pair that fits is kept", "abc" + EMOJI, 5, "abc" + EMOJI),
                Arguments.of("a NUL is replaced, then counted", "\u0000bcdef", 5, "\uFFFDbcde"),
                Arguments.of("a cap of zero", "abc", 0, ""));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("capped")
    void keepsAtMostTheCapWithoutSplittingACharacter(String description, String text, int cap, String storable) {
        assertThat(StorableText.of(text, cap)).isEqualTo(storable);
    }

    @Test
    void nullStaysNull() {
        assertThat(StorableText.of(null)).isNull();
        assertThat(StorableText.of(null, 10)).isNull();
    }

    @Test
    void storableTextIsReturnedAsItIs() {
        String text = "exited with status 1";

        assertThat(StorableText.of(text)).isSameAs(text);
        assertThat(StorableText.of(text, 100)).isSameAs(text);
    }
}
