package dev.switchboard.bridge.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** The spellings YAML, the CRDs, stored rows and metric tags carry are today's, and a wrong one is named. */
class SpellingsTest {

    @Test
    void dialectsAreSpelledAsInTheConfiguration() {
        assertThat(Dialect.configNames()).containsExactly("a2a", "kagent-v1");
        for (Dialect d : Dialect.values()) {
            assertThat(Dialect.fromConfig(d.configName())).isEqualTo(d);
        }
        assertThatThrownBy(() -> Dialect.fromConfig("KAGENT_V1")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'KAGENT_V1' is not a dialect (expected a2a or kagent-v1)");
    }

    @Test
    void platformsAreSpelledAsInTheConfigurationAndLabelledAsTheAgentIsTold() {
        assertThat(Platform.configNames()).containsExactly("web", "slack");
        assertThat(Platform.WEB.label()).isEqualTo("Web");
        assertThat(Platform.SLACK.label()).isEqualTo("Slack");
        for (Platform p : Platform.values()) {
            assertThat(Platform.fromConfig(p.configName())).isEqualTo(p);
            assertThat(Platform.fromLabel(p.label())).isEqualTo(p);
        }
        assertThatThrownBy(() -> Platform.fromConfig("Web")).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("'Web' is not a chat platform (expected web or slack)");
        assertThatThrownBy(() -> Platform.fromLabel("teams")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("'teams'");
    }
}
