package dev.switchboard.bridge.engine;

import java.util.Arrays;
import java.util.List;

/**
 * The chat platform a Binding and its threads are on. A Binding's {@code spec.chat.platform}, the
 * {@code chat_thread.platform} column and the metrics' {@code platform} tag carry {@link #configName()}; the agent is
 * told {@link #label()}, the prefix of a person's text ({@code [Web: …]}), which a stored session also keeps.
 */
public enum Platform {
    WEB("web", "Web"),
    SLACK("slack", "Slack");

    private final String configName;
    private final String label;

    Platform(String configName, String label) {
        this.configName = configName;
        this.label = label;
    }

    /** The spelling in YAML, the CRDs, the store's rows and metric tags: {@code web}, {@code slack}. */
    public String configName() {
        return configName;
    }

    /** The platform as the agent is told it, in a person's prefix: {@code Web}, {@code Slack}. */
    public String label() {
        return label;
    }

    /** Every platform's {@link #configName()}, in declaration order (the schema's allowed values). */
    public static List<String> configNames() {
        return Arrays.stream(values()).map(Platform::configName).toList();
    }

    /** The platform spelled {@code name}; throws with the allowed spellings when there is none. */
    public static Platform fromConfig(String name) {
        for (Platform p : values()) {
            if (p.configName.equals(name)) {
                return p;
            }
        }
        throw new IllegalArgumentException("'" + name + "' is not a chat platform (expected "
                + String.join(" or ", configNames()) + ")");
    }

    /** The platform labelled {@code label} (a stored session keeps the label). */
    public static Platform fromLabel(String label) {
        for (Platform p : values()) {
            if (p.label.equals(label)) {
                return p;
            }
        }
        throw new IllegalArgumentException("'" + label + "' is not a chat platform's label (expected "
                + String.join(" or ", Arrays.stream(values()).map(Platform::label).toList()) + ")");
    }

    @Override
    public String toString() {
        return configName;
    }
}
