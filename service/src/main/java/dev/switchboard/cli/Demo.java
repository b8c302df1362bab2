package dev.switchboard.cli;

import dev.switchboard.app.SwitchboardApp;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

/**
 * What {@code switchboard demo} starts (O1): Switchboard with built-in agents. The agents are testkit agents, and the
 * testkit stays out of the production jar, so the one implementation lives in the {@code demo} module and is found
 * with {@link ServiceLoader} when that module's jar is on the classpath ({@code ./switchboard demo} puts it there).
 * Looked up only by the {@code demo} command: {@code serve} never loads a demo class.
 */
public interface Demo {

    /**
     * Starts Switchboard on host:port with the given store, its demo agents mounted and registered. A demo has no
     * credentials, so listening beyond loopback needs {@code insecure} (it refuses to start otherwise, like
     * {@code serve}).
     */
    Future<SwitchboardApp> start(Vertx vertx, String host, int port, String store, boolean insecure);

    /** The demo agents' names, in the order the welcome lists them. */
    List<String> agentNames();

    /** The demo on the classpath, if any. */
    static Optional<Demo> find() {
        return ServiceLoader.load(Demo.class).findFirst();
    }
}
