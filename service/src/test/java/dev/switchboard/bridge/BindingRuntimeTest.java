package dev.switchboard.bridge;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.bridge.engine.Dialect;
import dev.switchboard.bridge.engine.Platform;
import dev.switchboard.protocol.model.AgentCapabilities;
import dev.switchboard.protocol.model.AgentCard;
import dev.switchboard.protocol.model.AgentInterface;
import dev.switchboard.registry.AgentOrigin;
import dev.switchboard.registry.AgentRegistry;
import dev.switchboard.registry.RegisteredAgent;
import dev.switchboard.registry.RegistrationStore;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/** A Binding as the bridge runs it: what its calls share (the card) and carry (identity, trace context). */
class BindingRuntimeTest {

    private static final RegistrationStore NO_STORE = new RegistrationStore() {
        @Override
        public List<RegisteredAgent> loadAll() {
            return List.of();
        }

        @Override
        public void save(RegisteredAgent agent) {}

        @Override
        public void delete(String id) {}
    };

    static final AgentCard CARD = new AgentCard("agent", "test agent", "1",
            List.of(new AgentInterface("http://agent.test/a2a", "JSONRPC", "1.0", null)),
            AgentCapabilities.streamingOnly(), null, null, null, null, null, null);

    static AgentRegistry registry(String url) {
        AgentRegistry registry = new AgentRegistry(NO_STORE, Duration.ofMinutes(5));
        backend(registry, url);
        return registry;
    }

    static void backend(AgentRegistry registry, String url) {
        registry.putConfigured(new RegisteredAgent("backend", "backend", url, null, null, null, null, null, null,
                Map.of(), null, AgentOrigin.CONFIG, Instant.EPOCH, Instant.EPOCH));
    }

    static Binding binding() {
        return new Binding("web", "backend", Platform.WEB, null, List.of("web"), "bot", true, Duration.ofHours(1),
                Dialect.A2A, null, null, List.of(), List.of(), false);
    }

    @Test
    @DisplayName("Discovery: the card is fetched on first use and again when the URL or the credentials change — "
            + "per Binding: threads share one fetch (in flight too), a failed fetch is not kept, a new URL fetches again")
    void theCardIsCachedPerBindingByItsFingerprint() {
        AgentRegistry registry = registry("http://agent.test/a2a");
        BindingRuntime runtime = new BindingRuntime(binding(), null, registry);
        AtomicInteger fetches = new AtomicInteger();
        Promise<AgentCard> first = Promise.promise();

        Future<AgentCard> a = runtime.card(() -> {
            fetches.incrementAndGet();
            return first.future();
        });
        Future<AgentCard> b = runtime.card(() -> {
            fetches.incrementAndGet();
            return Future.succeededFuture(CARD);
        });
        assertThat(fetches).as("a fetch in flight is shared").hasValue(1);
        first.fail("connection refused");
        assertThat(a.failed()).isTrue();
        assertThat(b.failed()).isTrue();

        Future<AgentCard> c = runtime.card(() -> {
            fetches.incrementAndGet();
            return Future.succeededFuture(CARD);
        });
        assertThat(fetches).as("a failed fetch is not kept").hasValue(2);
        assertThat(c.result()).isSameAs(CARD);
        for (int i = 0; i < 5; i++) {
            runtime.card(() -> {
                fetches.incrementAndGet();
                return Future.succeededFuture(CARD);
            });
        }
        assertThat(fetches).as("fetched once, kept").hasValue(2);

        backend(registry, "http://agent.test/v2");
        runtime.card(() -> {
            fetches.incrementAndGet();
            return Future.succeededFuture(CARD);
        });
        assertThat(fetches).as("a new URL fetches the card again").hasValue(3);
    }
}
