package dev.switchboard.check;

/**
 * The contract rows {@code switchboard check} judges, one per row of the agent contract (seed 000) that can be observed
 * from outside. The ids are stable: scripts match on them. Order is the order they are printed.
 */
public enum RowId {
    DISCOVERY_CARD("discovery.card", "the card is served at the endpoint + /.well-known/agent-card.json and parses"),
    DISCOVERY_JSONRPC_INTERFACE("discovery.jsonrpc-interface", "the card lists at least one JSON-RPC interface"),
    DISCOVERY_STREAMING("discovery.streaming", "the card sets capabilities.streaming: true"),
    DISCOVERY_EXTENSIONS("discovery.extensions", "the card marks no extension required that the dialect does not speak"),
    TRANSPORT_NO_REDIRECT("transport.no-redirect", "every call is answered at the endpoint itself, never with a 3xx"),
    TRANSPORT_HEADERS_IN_30S("transport.headers-in-30s", "every call, streams included, gets its response headers within 30 s"),
    METHODS_SEND_STREAMING("methods.send-streaming", "SendStreamingMessage (message/stream) answers a turn with a stream"),
    METHODS_GET_TASK("methods.get-task", "GetTask (tasks/get) returns the task a turn started"),
    METHODS_SUBSCRIBE("methods.subscribe", "SubscribeToTask (tasks/resubscribe) is implemented"),
    METHODS_CANCEL("methods.cancel", "CancelTask (tasks/cancel) is implemented"),
    METHODS_LIST_TASKS("methods.list-tasks", "ListTasks (1.0 only) lists a context's tasks with the history that holds each turn's messageId"),
    REPLIES_TASK_EVENTS("replies.task-events", "a send is answered with task events (Task, status and artifact updates), not a bare Message"),
    REPLIES_NAMES_TASK_AND_CONTEXT("replies.names-task-and-context", "every event names the task and its contextId"),
    REPLIES_CREATES_CONTEXT("replies.creates-context", "a first turn (no contextId sent) gets a contextId of the agent's making, the same in GetTask"),
    REPLIES_KEEPS_CONTEXT("replies.keeps-context", "a later turn sent with that contextId stays in it"),
    REPLIES_ARTIFACT_TEXT("replies.artifact-text", "the answer comes in artifact text parts"),
    REPLIES_ENDS_WITH_FULL_TASK("replies.ends-with-full-task", "the stream ends with a full Task in a terminal, input-required or auth-required state"),
    REPLIES_EVENT_EVERY_5_MINUTES("replies.event-every-5-minutes", "a stream never goes 5 minutes without an event (not judged with --quick)"),
    SESSIONS_ONE_TASK_PER_CONTEXT("sessions.one-task-per-context", "no two tasks of one context run at once: each turn's task has settled when the next is sent, and none is left running"),
    SESSIONS_REPEATED_MESSAGE_ID("sessions.repeated-message-id", "a send repeating a first turn's messageId is the same turn, not a second run"),
    ERRORS_BUSY_ONLY_WHEN_BUSY("errors.busy-only-when-busy", "no send into an idle context is refused with -32004 (busy)"),
    KAGENT_HITL_EXTENSION("kagent.hitl-extension", "kagent-v1 only: the card lists kagent's human-in-the-loop extension (hitl/v1)");

    private final String id;
    private final String checks;

    RowId(String id, String checks) {
        this.id = id;
        this.checks = checks;
    }

    /** The stable id, e.g. {@code replies.keeps-context}. */
    public String id() {
        return id;
    }

    /** What the row checks, in one line (the README's table). */
    public String checks() {
        return checks;
    }
}
