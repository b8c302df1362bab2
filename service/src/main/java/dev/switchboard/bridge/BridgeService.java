package dev.switchboard.bridge;

import dev.switchboard.bridge.engine.Engine;
import dev.switchboard.bridge.store.ChatStore;
import dev.switchboard.chat.web.WebChatRoutes;
import dev.switchboard.client.A2aAgentClient;
import dev.switchboard.config.AgentBackendSpec;
import dev.switchboard.config.BindingSpec;
import dev.switchboard.config.SwitchboardConfig;
import dev.switchboard.registry.AgentRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.ext.web.Router;
import java.time.Clock;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import javax.sql.DataSource;

/**
 * The chat bridge (front door 2): the Bindings of the configuration, the session driver that runs
 * the contract engine for them, and the web chat. Backends are the gateway's registered agents.
 */
public final class BridgeService {

    private static final int LANES = 4;

    private final SessionDriver driver;
    private final A2aAgentClient client;
    private final WebChatRoutes web;
    private final ChatEvents events;

    private BridgeService(SessionDriver driver, A2aAgentClient client, WebChatRoutes web, ChatEvents events) {
        this.driver = driver;
        this.client = client;
        this.web = web;
        this.events = events;
    }

    /**
     * @param descriptions agent id → description, shown with the channels
     */
    public static BridgeService create(Vertx vertx, DataSource dataSource, SwitchboardConfig config,
            AgentRegistry registry, MeterRegistry meters, Clock clock, Function<String, String> descriptions) {
        ChatStore store = new ChatStore(dataSource);
        ChatEvents events = new ChatEvents();
        A2aAgentClient client = new A2aAgentClient(vertx, config.bridge().contract().responseHeaders());
        Map<String, BindingRuntime> bindings = new LinkedHashMap<>();
        for (BindingSpec b : config.bindings()) {
            AgentBackendSpec backend = config.backends().stream()
                    .filter(x -> x.name().equals(b.backendRef())).findFirst().orElse(null);
            String token = b.tokenSecretRef() == null ? null : config.secret(b.tokenSecretRef()).orElseThrow();
            bindings.put(b.name(), new BindingRuntime(b, backend, token, registry));
        }
        SessionDriver driver = new SessionDriver(vertx, store, events, client,
                new Engine(config.bridge().contract(), config.bridge().limits().maxAnswerChars()), clock, meters, bindings,
                LANES, config.bridge().limits());
        WebChatRoutes web = new WebChatRoutes(vertx, store, events, driver, config.bindings(), descriptions,
                config.bridge().webChat(), config.server(), clock);
        return new BridgeService(driver, client, web, events);
    }

    public void mount(Router router) {
        web.mount(router);
    }

    /** The web chat's page; mounted after every other route, as it answers any GET they did not take. */
    public void mountPage(Router router) {
        web.mountPage(router);
    }

    public ChatEvents events() {
        return events;
    }

    /** Recovers unfinished turns (B14); returns how many sessions were resumed. */
    public Future<Integer> start() {
        return driver.recover();
    }

    public SessionDriver driver() {
        return driver;
    }

    public void close() {
        driver.close();
        client.close();
    }
}
