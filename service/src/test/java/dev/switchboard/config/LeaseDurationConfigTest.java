package dev.switchboard.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code spec.bridge.leaseDuration} (issue 12): how long a replica's lease on a chat session lasts; 15 s unless set. */
class LeaseDurationConfigTest {

    private static SwitchboardConfig parse(String bridge) {
        return new ConfigLoader(Map.of()).parse("""
                apiVersion: switchboard.dev/v1
                kind: Server
                spec:
                  listen: 127.0.0.1:0
                %s
                """.formatted(bridge), "test.yaml");
    }

    @Test
    void defaultsToFifteenSeconds() {
        assertThat(parse("").bridge().limits().leaseDuration()).isEqualTo(Duration.ofSeconds(15));
    }

    @Test
    void isConfigurable() {
        assertThat(parse("  bridge: {leaseDuration: 4s}").bridge().limits().leaseDuration())
                .isEqualTo(Duration.ofSeconds(4));
    }

    @Test
    void zeroIsRefused() {
        assertThatThrownBy(() -> parse("  bridge: {leaseDuration: 0s}")).hasMessageContaining("leaseDuration");
    }
}
