package dev.switchboard.bridge.engine;

/**
 * What a thread is told. The quoted ones are the seed's own words; an agent's error message is never
 * shown.
 */
public final class Notices {

    private Notices() {}

    public static final String NO_OUTPUT = "The agent finished without any output.";
    public static final String TASK_FAILED = "The agent's task failed.";
    public static final String CONTEXT_CHANGED = "The agent no longer has this conversation";
    public static final String UNREACHABLE = "the agent could not be reached";
    public static final String NO_JSONRPC = "agent card lists no JSON-RPC interface";
    public static final String NO_STREAMING = "agent card does not declare streaming";
    public static final String UNSUPPORTED_EXTENSION = "agent requires an unsupported extension";
    /** kagent-v1: a typed reply cannot answer several questions at once; the answer form can. */
    public static final String ANSWER_EVERY_QUESTION =
            "The agent asked several questions: answer them with the question's form (one reply cannot answer them all).";

    public static final String REJECTED = "The agent rejected the task.";
    public static final String CANCELED = "The task was canceled.";
    public static final String CREDENTIALS_REJECTED = "The agent rejected Switchboard's credentials.";
    public static final String IDENTITY_REFUSED = "The agent refused this identity for the conversation.";
    public static final String BUSY = "The agent is busy; your message will be sent as soon as it takes it.";
    public static final String SESSION_GONE = "The agent no longer has this conversation; your next message starts a new one.";
    public static final String ANSWER_REJECTED = "The agent rejected the answer; its task was cancelled.";
    public static final String QUESTION_NOT_ALLOWED = "The agent asked a question, which this channel does not allow; its task was cancelled.";
    public static final String QUESTION_UNSHOWABLE = "The agent asked for input that cannot be shown here; its task was cancelled.";
    public static final String QUESTION_TIMED_OUT = "The question was not answered in time; the agent's task was cancelled.";
    public static final String NO_SIGN_OF_LIFE = "The agent showed no sign of life for too long; its task was cancelled.";
    public static final String BINDING_REMOVED =
            "This channel's Binding was removed from Switchboard's configuration; this message was stopped.";
    public static final String CANCEL_FAILED = "The agent's task could not be cancelled; it may still be running.";

    /** The failed-task notice with its category, when one was recognised. */
    public static String taskFailed(FailureCategory category) {
        return category == null ? TASK_FAILED : TASK_FAILED + " Reason: " + category.label() + ".";
    }

    public static String unreachable() {
        return "The message was not delivered: " + UNREACHABLE + ".";
    }

    public static String refused(String reason) {
        return "The message was not delivered: " + reason + ".";
    }
}
