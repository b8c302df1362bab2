package dev.switchboard.bridge;

import dev.switchboard.bridge.engine.ContractDurations;
import dev.switchboard.bridge.engine.Engine;
import dev.switchboard.bridge.store.ChatStore;
import dev.switchboard.client.A2aAgentClient;
import dev.switchboard.protocol.model.AgentCard;
import dev.switchboard.client.AgentEndpoint;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import javax.sql.DataSource;

/**
 * The chat bridge (front door 2): the Bindings, the session driver that runs the contract engine for them, and
 * the chat store. It serves chat platforms through {@link ChatPlatform} and knows none of them; the application
 * wires the platforms (the web chat) in. Backends are the gateway's registered agents.
 */
public final class BridgeService {

    private static final int LANES = 4;

    private final SessionDriver driver;
    private final A2aAgentClient client;
    private final ChatStore store;
    private final AnswerFeedback feedback;

    private BridgeService(SessionDriver driver, A2aAgentClient client, ChatStore store, AnswerFeedback feedback) {
        this.driver = driver;
        this.client = client;
        this.store = store;
        this.feedback = feedback;
    }

    /** @param tracing makes the turns' spans when it is on ({@link dev.switchboard.tracing.Tracing#off()}: none) */
    public static BridgeService create(Vertx vertx, DataSource dataSource, ContractDurations contract,
            BridgeLimits limits, List<BindingRuntime> bindings, List<ChatPlatform> platforms, MeterRegistry meters,
            Clock clock, dev.switchboard.tracing.Tracing tracing) {
        return create(vertx, dataSource, contract, limits, new LiveBindings(bindings), platforms, meters, clock, tracing);
    }

    /** A bridge over Bindings that may change while it runs (Kubernetes watch mode). */
    public static BridgeService create(Vertx vertx, DataSource dataSource, ContractDurations contract,
            BridgeLimits limits, LiveBindings bindings, List<ChatPlatform> platforms, MeterRegistry meters,
            Clock clock, dev.switchboard.tracing.Tracing tracing) {
        return create(vertx, dataSource, contract, limits, bindings, platforms, meters, Scheduler.vertx(vertx, clock),
                tracing);
    }

    /**
     * As above, on the time of {@code scheduler}: the driver's clock and its timers (a test's virtual clock runs the
     * contract's minutes in no time).
     */
    public static BridgeService create(Vertx vertx, DataSource dataSource, ContractDurations contract,
            BridgeLimits limits, LiveBindings bindings, List<ChatPlatform> platforms, MeterRegistry meters,
            Scheduler scheduler, dev.switchboard.tracing.Tracing tracing) {
        ChatStore store = new ChatStore(dataSource);
        // several replicas on PostgreSQL (issue 12): each session is driven by the replica holding its lease
        SessionLeases leases = null;
        try (java.sql.Connection c = dataSource.getConnection()) {
            if (dev.switchboard.store.Database.Dialect.of(c) == dev.switchboard.store.Database.Dialect.POSTGRESQL) {
                leases = new SessionLeases(dataSource, limits.leaseDuration());
                store.fence(leases.replicaId());
                // the id in bridge_lease.owner, so that an operator (and a test) can tell which process drives a thread
                org.slf4j.LoggerFactory.getLogger(BridgeService.class).info(
                        "bridge: replica {} drives chat sessions under leases of {} ms", leases.replicaId(),
                        limits.leaseDuration().toMillis());
            }
        } catch (java.sql.SQLException e) {
            throw new dev.switchboard.store.StoreException("cannot open the store", e);
        }
        A2aAgentClient client = new A2aAgentClient(vertx, contract.responseHeaders());
        Map<String, BindingRuntime> byName = bindings.byName();
        SessionDriver driver = new SessionDriver(vertx, store, new ChatPlatforms(platforms), client,
                new Engine(contract, limits.maxAnswerChars()), scheduler, meters, byName, LANES, limits, leases, tracing);
        return new BridgeService(driver, client, store, new AnswerFeedback(byName, store, client, tracing, meters));
    }

    /** Recovers unfinished turns (B14); returns how many sessions were resumed. */
    public Future<Integer> start() {
        return driver.recover();
    }

    public SessionDriver driver() {
        return driver;
    }

    public ChatStore store() {
        return store;
    }

    /** What follows a person's feedback on an answer (its span; the agent told, when the Binding asks). */
    public AnswerFeedback feedback() {
        return feedback;
    }

    /** Fetches an agent's card with the bridge's client (its size and time bounds); see {@link AgentSkills}. */
    public Future<AgentCard> fetchCard(AgentEndpoint endpoint) {
        return client.fetchCard(endpoint);
    }

    public void close() {
        driver.close();
        client.close();
    }
}
