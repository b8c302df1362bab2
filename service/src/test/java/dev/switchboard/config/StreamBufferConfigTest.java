package dev.switchboard.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.gateway.StreamBufferSettings;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** G13: Server.spec.gateway.streamBuffer as the loader reads it. */
class StreamBufferConfigTest {

    private final ConfigLoader loader = new ConfigLoader(Map.of());

    @Test
    void leftOutItBuffersByDefaultAndClosesADroppedStreamAtOnce() {
        StreamBufferSettings b = loader.parse("kind: Server\nspec: {}\n", "t.yaml").server().gateway().streamBuffer();
        assertThat(b).isEqualTo(StreamBufferSettings.DEFAULTS);
        assertThat(b.holdAfterDrop()).isEqualTo(Duration.ZERO);
        assertThat(b.enabled()).isTrue();
    }

    @Test
    void everyLimitIsRead() {
        StreamBufferSettings b = loader.parse("""
                kind: Server
                spec:
                  gateway:
                    streamBuffer: {events: 50, bytes: 65536, age: 2m, tasks: 10, holdAfterDrop: 30s}
                """, "t.yaml").server().gateway().streamBuffer();
        assertThat(b).isEqualTo(new StreamBufferSettings(50, 65536, Duration.ofMinutes(2), 10, Duration.ofSeconds(30)));
    }

    @Test
    void zeroEventsTurnsBufferingOff() {
        StreamBufferSettings b = loader.parse("kind: Server\nspec:\n  gateway:\n    streamBuffer: {events: 0}\n", "t.yaml")
                .server().gateway().streamBuffer();
        assertThat(b.enabled()).isFalse();
    }

    @Test
    void aNegativeOrMisspelledLimitIsAConfigErrorNamingIt() {
        assertThatThrownBy(() -> loader.parse("kind: Server\nspec:\n  gateway:\n    streamBuffer: {events: -1}\n", "t.yaml"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("streamBuffer.events");
        assertThatThrownBy(() -> loader.parse("kind: Server\nspec:\n  gateway:\n    streamBuffer: {evnts: 5}\n", "t.yaml"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("evnts");
    }
}
