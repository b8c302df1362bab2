package dev.switchboard.security;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.testkit.TestAgent;
import io.vertx.core.Vertx;

/** Stops what a security test started, in order, whatever of it did start. */
final class TestServers {

    private TestServers() {}

    static void stop(SwitchboardApp app, TestAgent agent, Vertx vertx) {
        try {
            if (app != null) {
                app.close().await();
            }
            if (agent != null) {
                agent.close().await();
            }
        } finally {
            if (vertx != null) {
                vertx.close().await();
            }
        }
    }
}
