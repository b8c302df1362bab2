package dev.switchboard.bridge.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.protocol.CallFailure;
import dev.switchboard.protocol.model.AgentCard;
import dev.switchboard.protocol.model.ListTasksResult;
import dev.switchboard.protocol.model.StreamEvent;
import dev.switchboard.protocol.model.Task;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.function.Function;

/**
 * Drives the {@link Engine} on a virtual clock with the seed's real durations. It holds the session,
 * feeds inputs, logs every effect and keeps every {@link Effect.ScheduleTimer} it was asked for
 * (stale ones included, as the least forgiving driver would), so {@link #advance} can walk a
 * 15-minute retry window or an hour of silence in microseconds.
 *
 * <p>Results are fed to the newest call (the engine decides whether its generation is still
 * current). An optional {@link #agent scripted agent} answers calls as they are made.
 */
final class EngineHarness {

    static final Instant T0 = Instant.parse("2025-06-01T09:00:00Z");
    static final Actor ADA = new Actor("U123", "Ada Lovelace", "ada@example.com");

    private record Timer(long gen, Instant at, long seq) {}

    final Engine engine = new Engine(ContractDurations.DEFAULTS);
    Session session;
    Instant now = T0;
    /** every effect of every step, in order */
    final List<Effect> log = new ArrayList<>();
    /** when each effect of {@link #log} was asked for */
    final List<Instant> logTimes = new ArrayList<>();
    /** the effects of the last step fed directly by the test (not by the scripted agent) */
    List<Effect> last = List.of();
    private final List<Timer> timers = new ArrayList<>();
    private long timerSeq;
    private Effect call;
    private Function<Effect, List<Input>> agent;
    /** a driver that keeps only the newest timer (the default keeps every one) */
    private boolean newestTimerOnly;
    private final Deque<Input> queued = new ArrayDeque<>();
    private boolean draining;

    EngineHarness(Platform platform, Dialect dialect, boolean questionsAllowed, Duration questionTimeout) {
        session = new Session("thread-1", platform, dialect, questionsAllowed, questionTimeout, "fp-1");
    }

    /** An a2a Binding on the web chat, questions allowed with the default one-hour timeout. */
    static EngineHarness a2a() {
        return new EngineHarness(Platform.WEB, Dialect.A2A, true, Duration.ofHours(1));
    }

    static EngineHarness kagent() {
        return new EngineHarness(Platform.WEB, Dialect.KAGENT_V1, true, Duration.ofHours(1));
    }

    // ================= feeding =================

    List<Effect> feed(Input input) {
        List<Effect> effects = step(input);
        last = effects;
        drainAgent();
        return effects;
    }

    private List<Effect> step(Input input) {
        Transition t = engine.step(session, input, now);
        session = t.session();
        log.addAll(t.effects());
        t.effects().forEach(e -> logTimes.add(now));
        for (Effect e : t.effects()) {
            if (e instanceof Effect.ScheduleTimer s) {
                assertThat(s.at()).as("a timer is never set in the past").isAfterOrEqualTo(now);
                if (newestTimerOnly) {
                    timers.clear();
                }
                timers.add(new Timer(s.gen(), s.at(), timerSeq++));
            } else if (isCall(e)) {
                call = e;
                if (agent != null) {
                    List<Input> replies = agent.apply(e);
                    if (replies != null) {
                        queued.addAll(replies);
                    }
                }
            }
        }
        return t.effects();
    }

    private void drainAgent() {
        if (draining) {
            return;
        }
        draining = true;
        try {
            while (!queued.isEmpty()) {
                step(queued.poll());
            }
        } finally {
            draining = false;
        }
    }

    /** From now on every call is answered by {@code script} at once (null or empty: left unanswered). */
    EngineHarness agent(Function<Effect, List<Input>> script) {
        this.agent = script;
        return this;
    }

    /** Behave as a driver that keeps only the newest timer it was asked for. */
    EngineHarness newestTimerOnly() {
        this.newestTimerOnly = true;
        return this;
    }

    /** The timers still pending, as (gen, at). */
    List<String> pendingTimers() {
        return timers.stream().sorted(Comparator.comparing(Timer::at)).map(t -> t.gen() + "@" + t.at()).toList();
    }

    static boolean isCall(Effect e) {
        return e instanceof Effect.FetchCard || e instanceof Effect.SendStream || e instanceof Effect.GetTask
                || e instanceof Effect.Subscribe || e instanceof Effect.ListTasks || e instanceof Effect.CancelTask;
    }

    // ================= a person, the agent, the service =================

    List<Effect> chat(String messageId, String text) {
        return chat(messageId, text, ADA);
    }

    List<Effect> chat(String messageId, String text, Actor actor) {
        return feed(new Input.ChatMessage(messageId, text, actor));
    }

    List<Effect> restart() {
        return feed(new Input.Restarted());
    }

    List<Effect> card(AgentCard card) {
        return feed(new Input.CardFetched(genOf(call(Effect.FetchCard.class)), card));
    }

    List<Effect> event(StreamEvent event) {
        return feed(new Input.StreamEventReceived(streamGen(), event));
    }

    /** The events, then the normal end of the stream. */
    List<Effect> stream(StreamEvent... events) {
        long gen = streamGen(); // this stream's: a step may open the next turn's
        List<Effect> all = new ArrayList<>();
        for (StreamEvent e : events) {
            all.addAll(feed(new Input.StreamEventReceived(gen, e)));
        }
        all.addAll(feed(new Input.StreamEnded(gen)));
        last = all;
        return all;
    }

    List<Effect> end() {
        return feed(new Input.StreamEnded(streamGen()));
    }

    List<Effect> fail(CallFailure failure) {
        return feed(failed(call, failure, false));
    }

    /** A stream that had delivered events fails (the connection drops). */
    List<Effect> drop(CallFailure failure) {
        return feed(failed(call, failure, true));
    }

    List<Effect> read(Task task) {
        return feed(new Input.TaskRead(genOf(call(Effect.GetTask.class)), task));
    }

    List<Effect> listed(ListTasksResult page) {
        return feed(new Input.TasksListed(genOf(call(Effect.ListTasks.class)), page));
    }

    List<Effect> cancelAccepted(Task task) {
        return feed(new Input.CancelAccepted(genOf(call(Effect.CancelTask.class)), task));
    }

    private long streamGen() {
        assertThat(call).as("a stream is open").isInstanceOfAny(Effect.SendStream.class, Effect.Subscribe.class);
        return genOf(call);
    }

    // ================= inputs a scripted agent returns =================

    static Input failed(Effect call, CallFailure failure, boolean afterEvents) {
        return new Input.CallFailed(genOf(call), callOf(call), failure, afterEvents);
    }

    static List<Input> replyStream(Effect call, StreamEvent... events) {
        List<Input> inputs = new ArrayList<>();
        for (StreamEvent e : events) {
            inputs.add(new Input.StreamEventReceived(genOf(call), e));
        }
        inputs.add(new Input.StreamEnded(genOf(call)));
        return inputs;
    }

    static List<Input> replyFailure(Effect call, CallFailure failure) {
        return List.of(failed(call, failure, false));
    }

    static List<Input> replyRead(Effect call, Task task) {
        return List.of(new Input.TaskRead(genOf(call), task));
    }

    static List<Input> replyListed(Effect call, ListTasksResult page) {
        return List.of(new Input.TasksListed(genOf(call), page));
    }

    static long genOf(Effect e) {
        if (e instanceof Effect.FetchCard c) {
            return c.gen();
        } else if (e instanceof Effect.SendStream s) {
            return s.gen();
        } else if (e instanceof Effect.GetTask g) {
            return g.gen();
        } else if (e instanceof Effect.Subscribe s) {
            return s.gen();
        } else if (e instanceof Effect.ListTasks l) {
            return l.gen();
        } else if (e instanceof Effect.CancelTask c) {
            return c.gen();
        }
        throw new AssertionError("not a call: " + e);
    }

    static Input.Call callOf(Effect e) {
        if (e instanceof Effect.FetchCard) {
            return Input.Call.CARD;
        } else if (e instanceof Effect.SendStream) {
            return Input.Call.SEND;
        } else if (e instanceof Effect.GetTask) {
            return Input.Call.GET_TASK;
        } else if (e instanceof Effect.Subscribe) {
            return Input.Call.SUBSCRIBE;
        } else if (e instanceof Effect.ListTasks) {
            return Input.Call.LIST_TASKS;
        } else if (e instanceof Effect.CancelTask) {
            return Input.Call.CANCEL;
        }
        throw new AssertionError("not a call: " + e);
    }

    // ================= virtual time =================

    /** Fires every timer due within {@code d}, in order, each at its own instant; then the clock reads now + d. */
    EngineHarness advance(Duration d) {
        advanceTo(now.plus(d));
        return this;
    }

    EngineHarness advanceTo(Instant until) {
        while (true) {
            Timer t = earliest();
            if (t == null || t.at().isAfter(until)) {
                break;
            }
            fire(t);
        }
        now = until;
        return this;
    }

    /**
     * Fires timers in order until one of them makes a call; returns that call, or null when none
     * comes within {@code limit} (the clock then stops at the last timer fired).
     */
    Effect nextCall(Duration limit) {
        Instant until = now.plus(limit);
        while (true) {
            Timer t = earliest();
            if (t == null || t.at().isAfter(until)) {
                return null;
            }
            List<Effect> effects = fire(t);
            for (Effect e : effects) {
                if (isCall(e)) {
                    return e;
                }
            }
        }
    }

    private Timer earliest() {
        return timers.stream().min(Comparator.comparing(Timer::at).thenComparingLong(Timer::seq)).orElse(null);
    }

    private List<Effect> fire(Timer t) {
        timers.remove(t);
        now = t.at();
        return feed(new Input.TimerFired(t.gen()));
    }

    // ================= looking =================

    /** The newest call, which must be of this type. */
    <T extends Effect> T call(Class<T> type) {
        assertThat(call).as("the newest call").isInstanceOf(type);
        return type.cast(call);
    }

    Effect call() {
        return call;
    }

    /** The one effect of this type in the last step. */
    <T extends Effect> T expect(Class<T> type) {
        List<T> found = of(last, type);
        assertThat(found).as("%s in the last step %s", type.getSimpleName(), last).hasSize(1);
        return found.get(0);
    }

    static <T extends Effect> List<T> of(List<Effect> effects, Class<T> type) {
        return effects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    <T extends Effect> List<T> all(Class<T> type) {
        return of(log, type);
    }

    List<String> notices() {
        return all(Effect.PostNotice.class).stream().map(Effect.PostNotice::text).toList();
    }

    List<Effect.SendStream> sends() {
        return all(Effect.SendStream.class);
    }

    List<TurnView> views(String messageId) {
        return all(Effect.TurnStateChanged.class).stream().filter(s -> s.messageId().equals(messageId))
                .map(Effect.TurnStateChanged::state).toList();
    }

    TurnView lastView(String messageId) {
        List<TurnView> v = views(messageId);
        return v.isEmpty() ? null : v.get(v.size() - 1);
    }

    Turn turn(String messageId) {
        return session.turn(messageId).orElseThrow(() -> new AssertionError("no turn " + messageId));
    }

    boolean finished(String messageId) {
        return session.turn(messageId).isEmpty();
    }

    /** When each effect of this type was asked for. */
    List<Instant> timesOf(Class<? extends Effect> type) {
        List<Instant> times = new ArrayList<>();
        for (int i = 0; i < log.size(); i++) {
            if (type.isInstance(log.get(i))) {
                times.add(logTimes.get(i));
            }
        }
        return times;
    }

    /** The gaps between consecutive effects of this type. */
    List<Duration> gapsOf(Class<? extends Effect> type) {
        List<Instant> times = timesOf(type);
        List<Duration> gaps = new ArrayList<>();
        for (int i = 1; i < times.size(); i++) {
            gaps.add(Duration.between(times.get(i - 1), times.get(i)));
        }
        return gaps;
    }

    void clearLog() {
        log.clear();
        logTimes.clear();
    }

    // ================= common openings =================

    /** A person's first message on a fresh thread: the card is fetched (1.0), then the message is sent. */
    Effect.SendStream firstTurn(String messageId, String text) {
        chat(messageId, text);
        card(Wire.card10());
        return call(Effect.SendStream.class);
    }

    /** the status of the question {@link #askedQuestion} had the agent ask */
    dev.switchboard.protocol.model.TaskStatus question;

    /** A first turn whose task t1 (context c1) asks "Which day?" as question {@code questionId}. */
    void askedQuestion(String messageId, String questionId) {
        firstTurn(messageId, "book a table");
        question = Wire.asking(questionId, now, "Which day?");
        event(Wire.task("t1", "c1", question));
        expect(Effect.AskQuestion.class);
    }

    /** A typed answer on a2a: the task is read first, still asks the question, and the answer is sent. */
    Effect.SendStream answered(String answerId, String text) {
        chat(answerId, text);
        assertThat(call(Effect.GetTask.class).taskId()).isEqualTo("t1");
        read(Wire.task("t1", "c1", question));
        return call(Effect.SendStream.class);
    }

    /** A turn that runs to completion with this answer, establishing context {@code ctx} and task {@code taskId}. */
    void completedTurn(String messageId, String text, String taskId, String ctx, String answer) {
        if (session.agentVersion() == null) {
            firstTurn(messageId, text);
        } else {
            chat(messageId, text);
        }
        stream(Wire.task(taskId, ctx, dev.switchboard.protocol.model.TaskState.WORKING),
                Wire.artifact(taskId, ctx, "a1", answer, false),
                Wire.task(taskId, ctx, dev.switchboard.protocol.model.TaskState.COMPLETED, answer));
        assertThat(finished(messageId)).as("turn %s finished", messageId).isTrue();
    }
}
