package dev.switchboard.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@code Server.spec.compat} (issue 15): {@code kubemq} or absent; anything else is refused, naming the field. */
class CompatConfigTest {

    private static ServerSpec parse(String extra) {
        return new ConfigLoader(Map.of()).parse("""
                apiVersion: switchboard.dev/v1
                kind: Server
                spec:
                  listen: 127.0.0.1:0
                %s
                """.formatted(extra), "test.yaml").server();
    }

    @Test
    void absentIsSwitchboardsOwnNames() {
        ServerSpec s = parse("");
        assertThat(s.compat()).isEqualTo(Compat.NONE);
        assertThat(s.callerIdHeader()).isEqualTo("X-Switchboard-Caller-ID");
    }

    @Test
    void kubemqSetsKubemqsCallerIdHeader() {
        ServerSpec s = parse("  compat: kubemq");
        assertThat(s.compat()).isEqualTo(Compat.KUBEMQ);
        assertThat(s.callerIdHeader()).isEqualTo("X-KubeMQ-Caller-ID");
    }

    @Test
    void aCallerIdHeaderSetExplicitlyStillWins() {
        ServerSpec s = parse("  compat: kubemq\n  callerIdHeader: X-Team-Caller");
        assertThat(s.compat()).isEqualTo(Compat.KUBEMQ);
        assertThat(s.callerIdHeader()).isEqualTo("X-Team-Caller");
    }

    @Test
    void anyOtherValueIsRefusedNamingTheFieldAndTheOneValue() {
        assertThatThrownBy(() -> parse("  compat: nginx"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("spec.compat")
                .hasMessageContaining("'nginx'")
                .hasMessageContaining("kubemq");
        assertThatThrownBy(() -> parse("  compat: [kubemq]")).hasMessageContaining("spec.compat");
    }
}
