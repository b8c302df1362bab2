package dev.switchboard.bridge;

import dev.switchboard.bridge.engine.Input;
import dev.switchboard.bridge.store.ChatThread;
import dev.switchboard.bridge.store.Post;
import dev.switchboard.log.LogContext;
import io.vertx.core.Future;
import java.util.function.Supplier;

/**
 * Who drives a chat session: this one process (SQLite), or whichever replica holds the session's lease when replicas
 * share PostgreSQL (issue 12). The driver asks this at the few points where the two differ; everything else it does
 * the same way for both.
 */
sealed interface Replication permits OneProcess, LeasedReplicas {

    /** B14 at start-up: the sessions with unfinished turns this process takes are fed {@link Input.Restarted}. */
    Future<Integer> recover();

    /** Takes a person's message or answer into its thread here, or hands it to the replica that drives the thread. */
    Future<Post> admit(ChatThread thread, Incoming message);

    /** Whether this process steps the thread; when not, whatever comes for it here is late and is dropped. */
    boolean drives(String threadId);

    /** The thread left this process's memory (it was idle): whichever replica a message reaches next takes it. */
    void idle(String threadId);

    /** A commit found the session's lease lost: the session leaves this process, another one drives it now. */
    void lost(String threadId);

    /** Stops renewing, listening and taking sessions over (a clean stop, or a death in a test). */
    void stop();

    /** After a clean stop's lanes finished: lets every session go, for the others to take at once. */
    void letAllGo();

    /** The leases of several replicas; null for one process. */
    SessionLeases leases();

    /** What a replication needs of the driver. */
    interface Driver {
        <T> Future<T> onLane(String key, Supplier<T> work);

        /** On the thread's lane: accepts the message (or refuses it with a {@link TurnRefused}). */
        Post take(ChatThread thread, Incoming message);

        /** Feeds an input to the thread's session on its lane. */
        void submit(String threadId, Input input);

        /** On the thread's lane: steps the thread's session with the input now. */
        void step(String threadId, Input input);

        /** The thread as stored, held in memory from now on. */
        ChatThread thread(String threadId);

        /** Holds the thread in memory, as given when it is not yet. */
        void remember(ChatThread thread);

        /** On the thread's lane: drops everything held of the thread (its stream is cut, its timers go). */
        void forget(String threadId);

        boolean inMemory(String threadId);

        boolean closed();

        /** The ids of a thread for its log lines. */
        LogContext ids(String threadId);
    }
}
