package dev.switchboard.security;

import dev.switchboard.app.SwitchboardApp;
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
import java.util.Map;

/** Builds the server configurations the security tests start: the defaults, with the one change a test is about. */
final class ServerUnderTest {

    private ServerUnderTest() {}

    static ServerSpec spec(Path dir, String host) {
        return ServerSpec.defaults().withListen(host, 0).withStore("sqlite:" + dir.resolve("switchboard.db"));
    }

    static ServerSpec withHttp(ServerSpec s, HttpLimits http) {
        return new ServerSpec(s.host(), s.port(), s.store(), s.adminToken(), s.apiKeys(), s.callerIdHeader(),
                s.registrationTtl(), s.gateway(), s.insecure(), s.publicUrl(), http, s.registry());
    }

    static ServerSpec withCredentials(ServerSpec s, String adminToken, List<dev.switchboard.auth.CallerAuth.ApiKey> keys) {
        return new ServerSpec(s.host(), s.port(), s.store(), adminToken, keys, s.callerIdHeader(),
                s.registrationTtl(), s.gateway(), s.insecure(), s.publicUrl(), s.http(), s.registry());
    }

    static SwitchboardConfig config(ServerSpec server, List<AgentBackendSpec> backends, List<BindingSpec> bindings) {
        return new SwitchboardConfig(server, backends, bindings, Map.of());
    }

    static BindingSpec webBinding(String backend) {
        return new BindingSpec("web-" + backend, backend, "web", List.of(backend), "switchboard", null, true,
                Duration.ofHours(1));
    }

    static Future<SwitchboardApp> start(Vertx vertx, SwitchboardConfig config) {
        return SwitchboardApp.start(vertx, config);
    }

    static SwitchboardApp started(Vertx vertx, SwitchboardConfig config) {
        return Wait.on(start(vertx, config));
    }
}
