package dev.switchboard.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.switchboard.bridge.engine.Dialect;
import dev.switchboard.registry.AgentLimits;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The loader reads through {@link ResourceSchemas}: a field left out is the schema's default, which is the settings
 * types' own, and the schema's enums and minimums are refused in the loader's words, for Server as for the CRD kinds.
 */
class SchemaDrivenLoaderTest {

    private static final ConfigLoader LOADER = new ConfigLoader(Map.of());

    private static String server(String spec) {
        return "apiVersion: switchboard.dev/v1\nkind: Server\nspec:\n" + spec + "\n";
    }

    private static String backend(String extra) {
        return "apiVersion: switchboard.dev/v1\nkind: AgentBackend\nmetadata: {name: echo}\nspec:\n"
                + "  url: http://127.0.0.1:9999/\n" + extra;
    }

    @Test
    void aServerThatSetsNothingIsTheDefaults() {
        SwitchboardConfig c = LOADER.parse(server("  {}"), "s.yaml");
        assertThat(c.server()).isEqualTo(ServerSpec.defaults());
        assertThat(c.bridge()).isEqualTo(BridgeSettings.DEFAULTS);
        assertThat(LOADER.parse("", "empty.yaml").server()).isEqualTo(ServerSpec.defaults());
    }

    @Test
    void anAgentBackendThatSetsNothingHasTheDefaultLimits() {
        AgentBackendSpec b = LOADER.parse(backend(""), "b.yaml").backends().get(0);
        assertThat(b.limits()).isEqualTo(AgentLimits.DEFAULTS);
        assertThat(b.dialect()).isEqualTo(Dialect.A2A);
        assertThat(b.agentRefName()).isEqualTo("echo");
    }

    @Test
    void anEnumNamesWhatItExpects() {
        assertThatThrownBy(() -> LOADER.parse(backend("  dialect: a3a\n"), "b.yaml")).isInstanceOf(ConfigException.class)
                .hasMessage("b.yaml: document 1 (AgentBackend echo): spec.dialect: 'a3a' is not a dialect "
                        + "(expected a2a or kagent-v1)");
    }

    @Test
    void aServerNumberUnderItsMinimumAndAZeroDurationAreNamedByTheirPath() {
        assertThatThrownBy(() -> LOADER.parse(server("  bridge: {maxQueuedTurns: 0}"), "s.yaml"))
                .hasMessage("s.yaml: document 1 (Server): spec.bridge.maxQueuedTurns: must be greater than 0, got 0");
        assertThatThrownBy(() -> LOADER.parse(server("  contract: {giveUpAfter: 0s}"), "s.yaml"))
                .hasMessage("s.yaml: document 1 (Server): spec.contract.giveUpAfter: must be longer than 0");
        assertThatThrownBy(() -> LOADER.parse(server("  tracing: {samplingRatio: 2}"), "s.yaml"))
                .hasMessageContaining("spec.tracing.samplingRatio: must be a number from 0 to 1, got 2");
    }

    @Test
    void everyKindRefusesAnUnknownFieldInItsSpec() {
        assertThatThrownBy(() -> LOADER.parse(backend("  colour: blue\n"), "b.yaml"))
                .hasMessageContaining("(AgentBackend echo): spec.colour: unknown field");
        assertThatThrownBy(() -> LOADER.parse(server("  colour: blue"), "s.yaml"))
                .hasMessageContaining("(Server): spec.colour: unknown field");
        assertThatThrownBy(() -> LOADER.parse("apiVersion: v1\nkind: Secret\nmetadata: {name: s}\n"
                + "stringData: {k: v}\ncolour: blue\n", "x.yaml")).hasMessageContaining("(Secret s): colour: unknown field");
    }
}
