package dev.switchboard.bridge.engine;

import java.util.Arrays;
import java.util.List;

/**
 * How an agent speaks (an AgentBackend's {@code spec.dialect}): the A2A protocol as written, or a kagent agent's
 * (its endpoint under {@code /agents/<ns>/<name>}, its human-in-the-loop extension). The configuration, the CRDs,
 * {@code switchboard check}'s report and the stored sessions carry {@link #configName()}; everything inside carries
 * the constant.
 */
public enum Dialect {
    A2A("a2a"),
    KAGENT_V1("kagent-v1");

    private final String configName;

    Dialect(String configName) {
        this.configName = configName;
    }

    /** The spelling in YAML, the CRDs, the check's report and stored sessions: {@code a2a}, {@code kagent-v1}. */
    public String configName() {
        return configName;
    }

    /** Every dialect's {@link #configName()}, in declaration order (the schema's allowed values). */
    public static List<String> configNames() {
        return Arrays.stream(values()).map(Dialect::configName).toList();
    }

    /** The dialect spelled {@code name}; throws with the allowed spellings when there is none. */
    public static Dialect fromConfig(String name) {
        for (Dialect d : values()) {
            if (d.configName.equals(name)) {
                return d;
            }
        }
        throw new IllegalArgumentException("'" + name + "' is not a dialect (expected "
                + String.join(" or ", configNames()) + ")");
    }

    @Override
    public String toString() {
        return configName;
    }
}
