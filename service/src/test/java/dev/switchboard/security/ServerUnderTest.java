package dev.switchboard.security;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.engine.Platform;
import dev.switchboard.config.AgentBackendSpec;
import dev.switchboard.config.BindingSpec;
import dev.switchboard.config.HttpLimits;
import dev.switchboard.config.ServerSpec;
import dev.switchboard.config.SwitchboardConfig;
import dev.switchboard.gateway.support.Wait;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** Builds the server configurations the security tests start: the defaults, with the one change a test is about. */
final class ServerUnderTest {

    private ServerUnderTest() {}

    static ServerSpec spec(Path dir, String host) {
        return ServerSpec.defaults().withListen(host, 0).withStore("sqlite:" + dir.resolve("switchboard.db"));
    }

    static ServerSpec withHttp(ServerSpec s, HttpLimits http) {
        return s.withHttp(http);
    }

    static ServerSpec withCredentials(ServerSpec s, String adminToken, List<dev.switchboard.auth.CallerAuth.ApiKey> keys) {
        return s.withAdminToken(adminToken).withApiKeys(keys);
    }

    static SwitchboardConfig config(ServerSpec server, List<AgentBackendSpec> backends, List<BindingSpec> bindings) {
        return SwitchboardConfig.empty().withServer(server).withBackends(backends).withBindings(bindings);
    }

    static BindingSpec webBinding(String backend) {
        return new BindingSpec("web-" + backend, backend, Platform.WEB, List.of(backend), "switchboard", null, true,
                Duration.ofHours(1));
    }

    static Future<SwitchboardApp> start(Vertx vertx, SwitchboardConfig config) {
        return SwitchboardApp.start(vertx, config);
    }

    static SwitchboardApp started(Vertx vertx, SwitchboardConfig config) {
        return Wait.on(start(vertx, config));
    }
}
