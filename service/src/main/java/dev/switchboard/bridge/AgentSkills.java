package dev.switchboard.bridge;

import dev.switchboard.client.AgentEndpoint;
import dev.switchboard.protocol.model.AgentCard;
import dev.switchboard.protocol.model.AgentSkill;
import dev.switchboard.registry.RegisteredAgent;
import io.vertx.core.Future;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What a Binding's agent can do, for a chat platform to offer (Slack's suggested prompts): the skills the operator
 * wrote on its AgentBackend when there are any (they chose what to show), else the skills of the agent's own card.
 * The card is the one the bridge uses ({@link BindingRuntime#card}): fetched once per Binding and shared, so asking
 * here before the first turn saves that turn the fetch.
 */
public final class AgentSkills {

    private static final Logger LOG = LoggerFactory.getLogger(AgentSkills.class);

    private final LiveBindings bindings;
    private final Function<AgentEndpoint, Future<AgentCard>> fetch;
    private final Duration wait;

    /** @param wait how long {@link #of} waits for a card not fetched yet (its fetch has its own time bound too) */
    public AgentSkills(LiveBindings bindings, Function<AgentEndpoint, Future<AgentCard>> fetch, Duration wait) {
        this.bindings = bindings;
        this.fetch = fetch;
        this.wait = wait;
    }

    /** The skills of Binding {@code bindingName}'s agent; empty when it has none, or is unknown or unreachable. Blocks. */
    public List<AgentSkill> of(String bindingName) {
        BindingRuntime binding = bindings.byName().get(bindingName);
        if (binding == null) {
            return List.of();
        }
        List<AgentSkill> configured = binding.backend().map(RegisteredAgent::skills).orElse(List.of());
        if (!configured.isEmpty()) {
            return configured;
        }
        Future<AgentCard> card = binding.card(() -> binding.endpoint(null).map(fetch)
                .orElseGet(() -> Future.failedFuture("no backend")));
        try {
            AgentCard c = card.toCompletionStage().toCompletableFuture().get(wait.toMillis(), TimeUnit.MILLISECONDS);
            return c.skills() == null ? List.of() : c.skills();
        } catch (ExecutionException | TimeoutException e) {
            LOG.debug("no card for binding {}'s skills: {}", bindingName, e.toString());
            return List.of();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return List.of();
        }
    }
}
