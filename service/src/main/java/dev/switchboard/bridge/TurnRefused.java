package dev.switchboard.bridge;

/**
 * Why {@link SessionDriver#accept} did not take a person's message. The web chat answers each with its own
 * status and words; the message is never shown as it is (it is ours, but the API's words are the API's).
 */
public abstract sealed class TurnRefused extends RuntimeException {

    private TurnRefused(String message) {
        super(message, null, false, false);
    }

    /** The messageId belongs to another message (another thread, or not a person's message). */
    public static final class MessageIdTaken extends TurnRefused {
        public MessageIdTaken(String messageId) {
            super("messageId " + messageId + " is already used by another message");
        }
    }

    /** The thread already holds {@code limit} turns waiting behind its running task. */
    public static final class QueueFull extends TurnRefused {
        private final int limit;

        public QueueFull(int limit) {
            super("the thread already has " + limit + " queued turns");
            this.limit = limit;
        }

        public int limit() {
            return limit;
        }
    }

    /** A structured answer that does not answer the thread's pending question: which one, and why not. */
    public static final class NotTheQuestion extends TurnRefused {
        private final String questionId;

        public NotTheQuestion(String questionId, String why) {
            super(why);
            this.questionId = questionId;
        }

        public String questionId() {
            return questionId;
        }
    }

    /** The thread's Binding is no longer in the configuration: nobody can carry its turns. */
    public static final class BindingGone extends TurnRefused {
        public BindingGone(String threadId, String binding) {
            super("thread " + threadId + " belongs to binding " + binding + ", which is no longer configured");
        }
    }
}
