package dev.switchboard.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.push.PushSettings;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** G14: Server.spec.gateway.push as the loader reads it. */
class PushSettingsConfigTest {

    private final ConfigLoader loader = new ConfigLoader(Map.of());

    @Test
    void leftOutTheDefaultsHold() {
        assertThat(loader.parse("kind: Server\nspec: {}\n", "t.yaml").server().gateway().push())
                .isEqualTo(PushSettings.DEFAULTS);
    }

    @Test
    void everySettingIsRead() {
        PushSettings p = loader.parse("""
                kind: Server
                spec:
                  gateway:
                    push: {maxAttempts: 4, firstRetry: 500ms, maxRetryWait: 30s, timeout: 3s}
                """, "t.yaml").server().gateway().push();
        assertThat(p.maxAttempts()).isEqualTo(4);
        assertThat(p.firstRetry()).isEqualTo(Duration.ofMillis(500));
        assertThat(p.maxRetryWait()).isEqualTo(Duration.ofSeconds(30));
        assertThat(p.timeout()).isEqualTo(Duration.ofSeconds(3));
        assertThat(p.maxBodyBytes()).isEqualTo(PushSettings.DEFAULTS.maxBodyBytes());
    }

    @Test
    void zeroAttemptsIsAConfigErrorNamingIt() {
        assertThatThrownBy(() -> loader.parse("kind: Server\nspec:\n  gateway:\n    push: {maxAttempts: 0}\n", "t.yaml"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("push.maxAttempts");
    }
}
