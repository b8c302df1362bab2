package dev.switchboard.config;

import dev.switchboard.policy.AccessPolicySpec;
import java.util.Map;

/**
 * One configuration document, read and validated on its own: everything but its references to other resources,
 * which {@link ConfigLoader#crossReferences} checks on a whole snapshot. The file loader and the Kubernetes watch
 * both read documents through {@link ConfigLoader}, so both give the same errors.
 */
public sealed interface ConfigDocument {

    String kind();

    /** metadata.name; the Server resource's may be null. */
    String name();

    record Server(String name, ServerSpec spec, BridgeSettings bridge) implements ConfigDocument {
        @Override
        public String kind() {
            return "Server";
        }
    }

    /** A Secret's keys and values; its toString never shows a value. */
    record Secret(String name, Map<String, String> values) implements ConfigDocument {
        @Override
        public String kind() {
            return "Secret";
        }

        @Override
        public String toString() {
            return "Secret[" + name + ", keys=" + values.keySet() + "]";
        }
    }

    record Backend(AgentBackendSpec spec) implements ConfigDocument {
        @Override
        public String kind() {
            return "AgentBackend";
        }

        @Override
        public String name() {
            return spec.name();
        }
    }

    record BindingDoc(BindingSpec spec) implements ConfigDocument {
        @Override
        public String kind() {
            return "Binding";
        }

        @Override
        public String name() {
            return spec.name();
        }
    }

    record SlackApp(SlackAppSpec spec) implements ConfigDocument {
        @Override
        public String kind() {
            return "SlackApp";
        }

        @Override
        public String name() {
            return spec.name();
        }
    }

    record Trigger(TriggerSpec spec) implements ConfigDocument {
        @Override
        public String kind() {
            return "Trigger";
        }

        @Override
        public String name() {
            return spec.name();
        }
    }

    record AccessPolicy(AccessPolicySpec spec) implements ConfigDocument {
        @Override
        public String kind() {
            return "AccessPolicy";
        }

        @Override
        public String name() {
            return spec.name();
        }
    }

    /**
     * A reference check that failed: {@code kind name: detail}. {@code name} is null for the Server resource.
     */
    record Problem(String kind, String name, String detail) {
        /** As the file loader words it, after the file's name: {@code AgentBackend x: spec.url: …}. */
        public String message() {
            return kind + (name == null ? "" : " " + name) + ": " + detail;
        }
    }
}
