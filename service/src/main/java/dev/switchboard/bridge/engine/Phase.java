package dev.switchboard.bridge.engine;

/**
 * Where a turn is. Every phase that waits on the agent or on a timer has a rule in {@link Recovery}
 * for the restart case.
 */
public enum Phase {
    /** accepted, waiting behind the session's active task */
    QUEUED,
    /** the agent's card is being fetched */
    FETCHING_CARD,
    /** waiting for a timer: resend, refetch, re-read, settle */
    WAITING,
    /** SendStreamingMessage sent, no event yet */
    SENDING,
    /** events arriving (from a send or a subscription) */
    STREAMING,
    /** GetTask in flight */
    READING_TASK,
    /** SubscribeToTask sent, no event yet */
    SUBSCRIBING,
    /** ListTasks in flight, looking for the turn's messageId */
    LISTING,
    /** the agent asked a question; the next chat message is the answer */
    PAUSED_INPUT,
    /** auth-required: paused with no prompt and no timeout */
    PAUSED_AUTH,
    /** CancelTask in flight */
    CANCELLING,
    /** finished; see {@link Outcome} */
    DONE
}
