package dev.switchboard.bridge;

import dev.switchboard.bridge.engine.Input;
import dev.switchboard.bridge.engine.Session;
import dev.switchboard.bridge.store.ChatStore;
import dev.switchboard.bridge.store.ChatThread;
import dev.switchboard.bridge.store.Post;
import io.vertx.core.Future;
import java.util.Map;

/** One process drives every session (SQLite): nothing to lease, nothing to forward. */
record OneProcess(Replication.Driver driver, ChatStore store) implements Replication {

    @Override
    public Future<Integer> recover() {
        return driver.onLane("recover", () -> {
            Map<String, Session> pending = store.pendingSessions();
            pending.keySet().forEach(id -> driver.submit(id, new Input.Restarted()));
            return pending.size();
        });
    }

    @Override
    public Future<Post> admit(ChatThread thread, Incoming message) {
        return driver.onLane(thread.threadId(), () -> driver.take(thread, message));
    }

    @Override
    public boolean drives(String threadId) {
        return true;
    }

    @Override
    public void idle(String threadId) {}

    @Override
    public void lost(String threadId) {
        driver.forget(threadId); // no fence without leases: a commit does not lose one
    }

    @Override
    public void stop() {}

    @Override
    public void letAllGo() {}

    @Override
    public SessionLeases leases() {
        return null;
    }
}
