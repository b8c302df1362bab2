package dev.switchboard.app;

import dev.switchboard.bridge.Binding;
import dev.switchboard.bridge.BindingRuntime;
import dev.switchboard.bridge.engine.Dialect;
import dev.switchboard.config.AgentBackendSpec;
import dev.switchboard.config.BindingSpec;
import dev.switchboard.config.SwitchboardConfig;
import dev.switchboard.registry.AgentRegistry;
import java.util.ArrayList;
import java.util.List;

/** The configuration's Binding resources as the bridge runs them: backend dialect copied in, token resolved. */
final class Bindings {

    private Bindings() {}

    static List<BindingRuntime> of(SwitchboardConfig config, AgentRegistry registry) {
        List<BindingRuntime> out = new ArrayList<>();
        for (BindingSpec b : config.bindings()) {
            AgentBackendSpec backend = config.backends().stream()
                    .filter(x -> x.name().equals(b.backendRef())).findFirst().orElse(null);
            String token = b.tokenSecretRef() == null ? null : config.secret(b.tokenSecretRef()).orElseThrow();
            out.add(new BindingRuntime(binding(b, backend), token, registry));
        }
        return out;
    }

    /** A backend that is not in the file (registered over the API) is spoken to in plain A2A. */
    static Binding binding(BindingSpec b, AgentBackendSpec backend) {
        return new Binding(b.name(), b.backendRef(), b.platform(), b.app(), b.channels(), b.userId(), b.questionsAllowed(),
                b.questionTimeout(),
                backend == null ? Dialect.A2A : backend.dialect(),
                backend == null ? "default" : backend.agentRefNamespace(),
                backend == null ? b.backendRef() : backend.agentRefName(),
                b.approvers(), b.allowedUsers(), b.feedbackToAgent());
    }
}
