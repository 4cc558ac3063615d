package io.drover.receptor.ui;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.web.server.ResponseStatusException;

class UiParamsTest {

    @Test
    void anAbsentOrBlankFilterIsNoFilter() {
        assertThat(UiParams.filter("domain", null)).isNull();
        assertThat(UiParams.filter("domain", "  ")).isNull();
        assertThat(UiParams.filter("domain", " apps ")).isEqualTo("apps");
    }

    @ParameterizedTest
    @ValueSource(strings = { "a\u0000b", "tab\there", "\u0007" })
    void aFilterWithControlCharactersIsRefused(String value) {
        assertThatThrownBy(() -> UiParams.filter("domain", value)).isInstanceOf(ResponseStatusException.class)
                .hasMessageContaining("400");
    }

    @Test
    void aFilterLongerThanAnyNameIsRefused() {
        assertThat(UiParams.filter("search", "x".repeat(256))).hasSize(256);
        assertThatThrownBy(() -> UiParams.filter("search", "x".repeat(257)))
                .isInstanceOf(ResponseStatusException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = { "-1", "abc", "1.5", "99999999999" })
    void anIndexIsAWholeNumberFromZero(String value) {
        assertThatThrownBy(() -> UiParams.index("from", value)).isInstanceOf(ResponseStatusException.class);
    }

    @Test
    void anAbsentIndexIsZero() {
        assertThat(UiParams.index("from", null)).isZero();
        assertThat(UiParams.index("from", "100")).isEqualTo(100);
    }
}
