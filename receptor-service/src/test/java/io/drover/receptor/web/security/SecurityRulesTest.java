package io.drover.receptor.web.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.security.SecureRandom;
import java.util.List;
import org.junit.jupiter.api.Test;

class SecurityRulesTest {

    @Test
    void devModeIsOnlyAllowedOnLoopback() {
        assertThat(DevMode.isLoopback("127.0.0.1")).isTrue();
        assertThat(DevMode.isLoopback("::1")).isTrue();
        assertThat(DevMode.isLoopback("localhost")).isTrue();
        assertThat(DevMode.isLoopback(null)).isFalse();
        assertThat(DevMode.isLoopback("0.0.0.0")).isFalse();
        assertThat(DevMode.isLoopback("10.1.2.3")).isFalse();
        assertThatThrownBy(() -> DevMode.requireLoopback(null)).hasMessageContaining("loopback");
    }

    @Test
    void aConfiguredPasswordIsUsedAndNeverShown() {
        ReceptorSecurityProperties properties = new ReceptorSecurityProperties("ops", "s3cret", false, List.of(),
                List.of());
        ReceptorCredentials credentials = ReceptorCredentials.from(properties, new SecureRandom());
        assertThat(credentials.matches("ops", "s3cret")).isTrue();
        assertThat(credentials.matches("ops", "s3cret ")).isFalse();
        assertThat(credentials.matches("other", "s3cret")).isFalse();
        assertThat(credentials.matches(null, null)).isFalse();
        assertThat(credentials.generated()).isFalse();
        assertThatThrownBy(credentials::generatedPassword).isInstanceOf(IllegalStateException.class);
        assertThat(credentials.toString()).doesNotContain("s3cret");
        assertThat(properties.toString()).doesNotContain("s3cret");
    }

    @Test
    void withoutAPasswordARandomOneIsGenerated() {
        ReceptorSecurityProperties properties = new ReceptorSecurityProperties(null, null, false, null, null);
        ReceptorCredentials first = ReceptorCredentials.from(properties, new SecureRandom());
        ReceptorCredentials second = ReceptorCredentials.from(properties, new SecureRandom());
        assertThat(first.generated()).isTrue();
        assertThat(first.username()).isEqualTo("drover");
        assertThat(first.generatedPassword()).hasSizeGreaterThanOrEqualTo(24).isNotEqualTo(second.generatedPassword());
        assertThat(first.matches("drover", first.generatedPassword())).isTrue();
    }
}
