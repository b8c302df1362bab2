package dev.switchboard.bridge.faults;

import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.RecordedRequest;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * A class of fault tests: one {@link FaultBridge} for all its tests, with the agents the class names,
 * and the web chat people use to reach them.
 */
@ServerTest
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class FaultTest {

    FaultBridge bridge;
    ChatApi chat;

    /** Adds the agents (and other backends) this class's faults play out against. */
    abstract FaultBridge.Builder agents(FaultBridge.Builder builder);

    @BeforeAll
    void start(@TempDir Path dir) {
        bridge = agents(FaultBridge.builder(dir.resolve("faults.db"))).start();
        chat = bridge.chat;
    }

    @AfterAll
    void stop() {
        if (bridge != null) {
            bridge.close();
        }
    }

    /** The sends of {@code messageId} that {@code agent} received, in order. */
    List<RecordedRequest> sends(String agent, String messageId) {
        return bridge.recorder(agent).rpcRequests().stream().filter(r -> messageId.equals(r.messageId())).toList();
    }
}
