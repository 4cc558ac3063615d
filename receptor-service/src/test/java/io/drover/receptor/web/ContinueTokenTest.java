package io.drover.receptor.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ContinueTokenTest {

    @Test
    void aTokenRoundTripsForItsOwnListAndDomain() {
        for (String domain : new String[] { null, "", "apps", "é\nweird,domain" }) {
            ContinueToken token = new ContinueToken("actual_lrps", domain, "web-1", 42);
            assertThat(ContinueToken.decode(token.encode(), "actual_lrps", domain)).isEqualTo(token);
        }
    }

    @Test
    void aTokenOfAnotherListOrDomainIsInvalidRequest() {
        String token = new ContinueToken("actual_lrps", "apps", "web", 0).encode();
        assertThatThrownBy(() -> ContinueToken.decode(token, "desired_lrps", "apps")).isInstanceOf(ApiException.class);
        assertThatThrownBy(() -> ContinueToken.decode(token, "actual_lrps", "other"))
                .isInstanceOf(ApiException.class);
        assertThatThrownBy(() -> ContinueToken.decode(token, "actual_lrps", null)).isInstanceOf(ApiException.class);
    }

    @ParameterizedTest
    @ValueSource(strings = { "", "%%", "AAAA", "not base64!", "AQ", "AQAKYWN0dWFsX2xycHMA" })
    void aTokenThatDoesNotDecodeIsInvalidRequest(String token) {
        assertThatThrownBy(() -> ContinueToken.decode(token, "actual_lrps", null)).isInstanceOf(ApiException.class)
                .satisfies(e -> assertThat(((ApiException) e).status().value()).isEqualTo(400));
    }

    @Test
    void aTamperedPositionOutsideTheGrammarIsInvalidRequest() {
        for (ContinueToken bad : new ContinueToken[] { new ContinueToken("actual_lrps", null, "a\0b", 0),
                new ContinueToken("actual_lrps", null, "", 0), new ContinueToken("actual_lrps", null, "web", -1) }) {
            assertThatThrownBy(() -> ContinueToken.decode(bad.encode(), "actual_lrps", null))
                    .isInstanceOf(ApiException.class);
        }
        String trailing = Base64.getUrlEncoder().withoutPadding().encodeToString(
                (new String(Base64.getUrlDecoder().decode(new ContinueToken("actual_lrps", null, "w", 1).encode()),
                        java.nio.charset.StandardCharsets.ISO_8859_1) + "x")
                        .getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        assertThatThrownBy(() -> ContinueToken.decode(trailing, "actual_lrps", null)).isInstanceOf(ApiException.class);
    }
}
