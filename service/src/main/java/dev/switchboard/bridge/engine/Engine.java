package dev.switchboard.bridge.engine;

import dev.switchboard.protocol.kagent.Hitl;
import java.time.Instant;
import java.util.List;

/**
 * The agent contract as a state machine: {@code step(session, input, now) → (session', effects)}.
 * Pure: no I/O, no clock, no threads. Time arrives as {@code now}; waiting is a
 * {@link Effect.ScheduleTimer}. The driver stores {@code session'} before it runs the effects, so
 * every effect that depends on a state change finds it durable.
 *
 * <p>Timers may fire late, early or more than once (a driver may keep every timer it was asked for,
 * or only the newest): each phase checks its own deadline, so a timer that is not yet due, or whose
 * generation was superseded, does nothing.
 *
 * <p>The rules live in one class per section of the seed (000): {@link Discovery}, {@link Sends},
 * {@link Replies}, {@link TaskStates}, {@link Questions}, {@link Errors}, and the Methods rows in
 * {@link Following}, {@link Lookups} and {@link Cancels}; {@link Sessions}, {@link Timers} and
 * {@link Recovery} hold the queue, the deadlines and the restart. This class only routes an input.
 */
public final class Engine {

    /** kagent's human-in-the-loop extension, exactly: the only one kagent-v1 speaks; a2a speaks none. */
    public static final String KAGENT_HITL = Hitl.URI;
    static final String ACTOR_KEY = "agentkourier.dev/actor";
    static final int MAX_LIST_PAGES = 100;
    static final int MINUS_31403 = -31403;

    /** Bounds (issue 8): an answer longer than this is cut, with a note saying so (the seed sets no limit). */
    public static final int DEFAULT_MAX_ANSWER_CHARS = 100_000;

    private final ContractDurations d;
    private final int maxAnswerChars;

    public Engine(ContractDurations durations) {
        this(durations, DEFAULT_MAX_ANSWER_CHARS);
    }

    public Engine(ContractDurations durations, int maxAnswerChars) {
        if (maxAnswerChars < 1) {
            throw new IllegalArgumentException("maxAnswerChars must be positive");
        }
        this.d = durations;
        this.maxAnswerChars = maxAnswerChars;
    }

    /** The note that ends an answer cut at {@code max} characters. */
    public static String cutNote(int max) {
        return "\n\n… (answer cut at " + max + " characters)";
    }

    public Transition step(Session given, Input input, Instant now) {
        Step s = new Step(given, now, d, maxAnswerChars);
        if (input instanceof Input.ChatMessage m) {
            Sessions.chatMessage(s, m);
        } else if (input instanceof Input.Restarted) {
            Recovery.restarted(s);
        } else if (input instanceof Input.BindingRemoved) {
            Sessions.bindingRemoved(s);
        } else if (input instanceof Input.Result r) {
            result(s, r);
        }
        Sessions.finishDoneTurns(s);
        return new Transition(s.session(), List.copyOf(s.effects()));
    }

    /** A result goes to the active turn, unless its call or timer was superseded (stale). */
    private static void result(Step s, Input.Result input) {
        if (s.session().active().isEmpty() || input.gen() != s.session().gen()) {
            return;
        }
        if (input instanceof Input.CardFetched c) {
            Discovery.cardFetched(s, c.card());
        } else if (input instanceof Input.StreamEventReceived e) {
            Replies.event(s, e.event());
        } else if (input instanceof Input.StreamEnded) {
            Replies.streamEnded(s);
        } else if (input instanceof Input.CallFailed f) {
            Errors.failed(s, f);
        } else if (input instanceof Input.TaskRead r) {
            Following.taskRead(s, r.task());
        } else if (input instanceof Input.TasksListed l) {
            Lookups.listed(s, l.page());
        } else if (input instanceof Input.CancelAccepted) {
            Cancels.cancelled(s);
        } else if (input instanceof Input.TimerFired) {
            Timers.fired(s);
        }
    }
}
