package dev.switchboard.bridge.support;

import dev.switchboard.testkit.TestAgent;
import io.vertx.core.Vertx;
import java.util.List;

/**
 * What a process-level test started, stopped in the reverse order of starting: the service processes (which still
 * call the agent while they drain), then the agent, then the Vert.x instance both ran on. Any of them may be null or
 * empty: a test can fail before it started them all.
 */
public final class Teardown {

    private Teardown() {}

    public static void stop(ServiceProcess service, TestAgent agent, Vertx vertx) throws Exception {
        stop(service == null ? List.of() : List.of(service), agent, vertx);
    }

    public static void stop(List<ServiceProcess> services, TestAgent agent, Vertx vertx) throws Exception {
        for (ServiceProcess s : services) {
            s.close();
        }
        if (agent != null) {
            agent.close().await();
        }
        if (vertx != null) {
            vertx.close().await();
        }
    }
}
