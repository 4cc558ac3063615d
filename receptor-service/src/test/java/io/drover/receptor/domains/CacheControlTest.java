package io.drover.receptor.domains;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.receptor.web.ApiException;
import java.time.Duration;
import org.junit.jupiter.api.Test;

class CacheControlTest {

    @Test
    void noHeaderNeverExpires() {
        assertThat(CacheControl.maxAge(null)).isNull();
    }

    @Test
    void maxAgeIsTheTtlInSeconds() {
        assertThat(CacheControl.maxAge("max-age=60")).isEqualTo(Duration.ofSeconds(60));
        assertThat(CacheControl.maxAge("public, MAX-AGE=0")).isEqualTo(Duration.ZERO);
        assertThat(CacheControl.maxAge("max-age=\"30\", private")).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void aHeaderWithoutAValidMaxAgeIsAnInvalidRequest() {
        for (String bad : new String[] { "no-cache", "", "private", "max-age=abc", "max-age=-1", "max-age=",
                "max-age=999999999999", "max-age=1.5" }) {
            assertThatThrownBy(() -> CacheControl.maxAge(bad)).as(bad).isInstanceOf(ApiException.class)
                    .extracting(e -> ((ApiException) e).error().name()).isEqualTo("InvalidRequest");
        }
    }
}
