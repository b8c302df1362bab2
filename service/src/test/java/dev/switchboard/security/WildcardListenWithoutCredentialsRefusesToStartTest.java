package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.switchboard.bridge.engine.Dialect;
import dev.switchboard.config.AgentBackendSpec;
import dev.switchboard.config.BindingSpec;
import dev.switchboard.config.ConfigLoader;
import dev.switchboard.config.ServerSpec;
import dev.switchboard.config.SwitchboardConfig;
import dev.switchboard.auth.CallerAuth;
import dev.switchboard.net.CidrBlock;
import dev.switchboard.registry.AgentLimits;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * O7 exposure: a fresh install listens on loopback only; listening anywhere else without API keys, an
 * admin token and a web-chat identity refuses to start, naming what to set, unless the operator says
 * insecure — then it warns at every start.
 */
@ServerTest
class WildcardListenWithoutCredentialsRefusesToStartTest {

    private final Vertx vertx = Vertx.vertx();
    @TempDir
    Path dir;

    @AfterEach
    void close() {
        vertx.close().await();
    }

    private static final AgentBackendSpec ECHO = new AgentBackendSpec("echo", "default", "http://127.0.0.1:9/",
            Dialect.A2A, null, null, null, Map.of(), null, AgentLimits.DEFAULTS, List.of());

    @Test
    void aFreshInstallListensOnLoopbackOnly() {
        assertThat(ServerSpec.defaults().host()).isEqualTo("127.0.0.1");
        SwitchboardConfig config = new ConfigLoader(Map.of()).parse("""
                apiVersion: switchboard.dev/v1
                kind: AgentBackend
                metadata: {name: echo}
                spec: {url: "http://127.0.0.1:9/"}
                """, "test.yaml");
        assertThat(config.server().host()).isEqualTo("127.0.0.1");
        assertThat(config.server().port()).isEqualTo(8080);
    }

    @Test
    void allInterfacesWithoutCredentialsRefusesNamingWhatToSet() {
        Throwable failure = refusal(config(spec(dir, "0.0.0.0"), List.of(ECHO), List.of(webBinding("echo"))));
        assertThat(failure.getMessage())
                .contains("refusing to listen on 0.0.0.0")
                .contains("Server.spec.apiKeys")
                .contains("Server.spec.adminToken")
                .contains("webChat.trustedProxies")
                .contains("insecure");
    }

    @Test
    void apiKeysAloneAreNotEnoughTheAdminTokenIsNamed() {
        ServerSpec s = spec(dir, "0.0.0.0").withAdminToken(null)
                .withApiKeys(List.of(new CallerAuth.ApiKey("ci", "0123456789abcdef-key")));
        Throwable failure = refusal(config(s, List.of(ECHO), List.of()));
        assertThat(failure.getMessage()).contains("Server.spec.adminToken").doesNotContain("Server.spec.apiKeys (");
    }

    @Test
    void withApiKeysAndAdminTokenItStarts() {
        ServerSpec s = spec(dir, "0.0.0.0").withAdminToken("an-admin-token-of-16+")
                .withApiKeys(List.of(new CallerAuth.ApiKey("ci", "0123456789abcdef-key")));
        try (SwitchboardFixture sb = SwitchboardFixture.builder().vertx(vertx)
                .config(config(s, List.of(ECHO), List.of(webBinding("echo")))).start()) {
            assertThat(sb.app().server().port()).isPositive();
        }
    }

    @Test
    void trustedProxiesCountAsTheWebChatIdentity() {
        ServerSpec s = spec(dir, "0.0.0.0").withAdminToken("an-admin-token-of-16+").withApiKeys(List.of());
        SwitchboardConfig config = config(s, List.of(ECHO), List.of(webBinding("echo")));
        config = config.withBridge(new dev.switchboard.config.BridgeSettings(
                new dev.switchboard.chat.web.WebChatSettings(false, config.bridge().webChat().defaultUser(),
                        List.of(CidrBlock.parse("10.0.0.0/8"))),
                config.bridge().contract(), config.bridge().limits()));
        Throwable failure = refusal(config);
        // the web chat has its identity; the gateway still needs keys
        assertThat(failure.getMessage()).contains("Server.spec.apiKeys (gateway").doesNotContain("web-chat identity");
    }

    @Test
    void insecureStartsAndWarnsAtEveryStart() {
        ListAppender<ILoggingEvent> log = new ListAppender<>();
        Logger root = (Logger) LoggerFactory.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        log.start();
        root.addAppender(log);
        try {
            SwitchboardConfig config = config(spec(dir, "0.0.0.0").withInsecure(true), List.of(ECHO), List.of());
            for (int i = 0; i < 2; i++) {
                SwitchboardFixture.builder().vertx(vertx).config(config).start().close();
            }
        } finally {
            root.detachAppender(log);
        }
        assertThat(log.list).filteredOn(e -> e.getLevel() == Level.WARN
                        && e.getFormattedMessage().startsWith("INSECURE: listening on 0.0.0.0"))
                .hasSize(2);
    }

    @Test
    void loopbackNeedsNoCredentials() {
        for (String host : List.of("127.0.0.1", "localhost", "::1")) {
            SwitchboardFixture.builder().vertx(vertx).config(config(spec(dir.resolve(host.replace(":", "_")), host),
                    List.of(ECHO), List.of(webBinding("echo")))).start().close();
        }
    }

    @Test
    void anAdminTokenShorterThan16CharactersIsAConfigError() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new ConfigLoader(Map.of()).parse("""
                        apiVersion: switchboard.dev/v1
                        kind: Server
                        spec: {adminToken: short-token}
                        """, "test.yaml"))
                .hasMessageContaining("spec.adminToken")
                .hasMessageContaining("at least 16 characters")
                .hasMessageNotContaining("short-token");
    }

    /** The defaults, on {@code host} with an ephemeral port, the store in {@code dir}: a test changes one thing. */
    private static ServerSpec spec(Path dir, String host) {
        return ServerSpec.defaults().withListen(host, 0).withStore("sqlite:" + dir.resolve("switchboard.db"));
    }

    private static SwitchboardConfig config(ServerSpec server, List<AgentBackendSpec> backends,
            List<BindingSpec> bindings) {
        return SwitchboardConfig.empty().withServer(server).withBackends(backends).withBindings(bindings);
    }

    private static BindingSpec webBinding(String backend) {
        return BindingSpec.web("web-" + backend, backend, List.of(backend), "switchboard");
    }

    /** Why the app refused to start on {@code config}. */
    private Throwable refusal(SwitchboardConfig config) {
        SwitchboardFixture.Builder start = SwitchboardFixture.builder().vertx(vertx).config(config);
        try {
            start.start().close();
        } catch (RuntimeException e) {
            return e;
        }
        throw new AssertionError("started, but should have refused");
    }
}
