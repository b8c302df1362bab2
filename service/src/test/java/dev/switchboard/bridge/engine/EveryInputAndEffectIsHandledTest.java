package dev.switchboard.bridge.engine;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.protocol.model.TaskState;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;
import java.util.regex.Pattern;
import org.junit.jupiter.api.DynamicTest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestFactory;

/**
 * Every kind of {@link Input} and {@link Effect} has someone who handles it. The engine and the driver dispatch with
 * {@code instanceof} chains, which the compiler does not hold to the sealed types (Java 17 has no pattern switch), so a
 * new permitted type would otherwise be ignored in silence: an input by {@link Engine#step}, an effect by the driver.
 *
 * <p>Inputs are proved by behaviour: each permitted input, fed to the engine in a state where it matters, changes the
 * session or asks for effects. Effects are proved by where they are dispatched: each one is run by the driver
 * ({@code EffectRunner.run}) or written with the step by the chat store ({@code ChatStore.commitStep}), and the
 * two lists below say which. A new Input or Effect fails here until it has a scenario or a place in a list, and its
 * handler.
 */
class EveryInputAndEffectIsHandledTest {

    /** Each permitted input, with the state in which the engine must act on it and the input itself. */
    private static final Map<Class<? extends Input>, Function<EngineHarness, Input>> SCENARIOS = scenarios();

    private static Map<Class<? extends Input>, Function<EngineHarness, Input>> scenarios() {
        Map<Class<? extends Input>, Function<EngineHarness, Input>> s = new LinkedHashMap<>();
        s.put(Input.ChatMessage.class, h -> new Input.ChatMessage("m1", "hello", EngineHarness.ADA));
        s.put(Input.Restarted.class, h -> {
            h.firstTurn("m1", "hello");
            return new Input.Restarted();
        });
        s.put(Input.BindingRemoved.class, h -> {
            h.firstTurn("m1", "hello");
            return new Input.BindingRemoved();
        });
        s.put(Input.CardFetched.class, h -> {
            h.chat("m1", "hello");
            return new Input.CardFetched(h.call(Effect.FetchCard.class).gen(), Wire.card10());
        });
        s.put(Input.StreamEventReceived.class, h -> new Input.StreamEventReceived(h.firstTurn("m1", "hello").gen(),
                Wire.task("t1", "c1", TaskState.WORKING)));
        s.put(Input.StreamEnded.class, h -> new Input.StreamEnded(h.firstTurn("m1", "hello").gen()));
        s.put(Input.CallFailed.class, h -> new Input.CallFailed(h.firstTurn("m1", "hello").gen(), Input.Call.SEND,
                Wire.http(500), false));
        s.put(Input.TaskRead.class, h -> {
            h.askedQuestion("m1", "q1");
            h.chat("m2", "Tuesday");
            return new Input.TaskRead(h.call(Effect.GetTask.class).gen(), Wire.task("t1", "c1", h.question));
        });
        s.put(Input.TasksListed.class, h -> {
            h.completedTurn("m0", "first", "t0", "c1", "ok");
            h.chat("m1", "second");
            h.fail(Wire.http(502));
            Effect lookup = h.nextCall(Duration.ofMinutes(1));
            assertThat(lookup).isInstanceOf(Effect.ListTasks.class);
            return new Input.TasksListed(EngineHarness.genOf(lookup), Wire.page(""));
        });
        s.put(Input.CancelAccepted.class, h -> {
            h.askedQuestion("m1", "q1");
            h.advance(Duration.ofHours(1));
            return new Input.CancelAccepted(h.call(Effect.CancelTask.class).gen(),
                    Wire.task("t1", "c1", TaskState.CANCELED));
        });
        s.put(Input.TimerFired.class, h -> {
            h.firstTurn("m1", "hello");
            h.event(Wire.task("t1", "c1", TaskState.WORKING));
            h.now = h.now.plus(Duration.ofMinutes(5)); // the stream's silence limit
            return new Input.TimerFired(h.session.gen());
        });
        return s;
    }

    /** Effects the driver runs after the step is stored: calls, streams, timers, meters. */
    private static final Set<Class<? extends Effect>> RUN_BY_THE_DRIVER = Set.of(Effect.FetchCard.class,
            Effect.SendStream.class, Effect.GetTask.class, Effect.Subscribe.class, Effect.ListTasks.class,
            Effect.CancelTask.class, Effect.CloseStream.class, Effect.ScheduleTimer.class,
            Effect.CountCredentialRejection.class);

    /** Effects the chat store writes in the step's own transaction: what the thread shows. */
    private static final Set<Class<? extends Effect>> COMMITTED_WITH_THE_STEP = Set.of(Effect.ShowAnswer.class,
            Effect.PostNotice.class, Effect.AskQuestion.class, Effect.ShowStep.class, Effect.TurnStateChanged.class);

    private static final Path DRIVER = Path.of("src/main/java/dev/switchboard/bridge/EffectRunner.java");
    private static final Path CHAT_STORE = Path.of("src/main/java/dev/switchboard/bridge/store/ChatStore.java");

    @Test
    void everyPermittedInputHasAScenario() {
        assertThat(names(SCENARIOS.keySet())).as("the Inputs with a scenario here").isEqualTo(names(leaves(Input.class)));
    }

    @TestFactory
    List<DynamicTest> theEngineActsOnEveryPermittedInput() {
        List<DynamicTest> tests = new ArrayList<>();
        SCENARIOS.forEach((type, scenario) -> tests.add(DynamicTest.dynamicTest(type.getSimpleName(), () -> {
            EngineHarness h = EngineHarness.a2a();
            Input input = scenario.apply(h);
            assertThat(input).isInstanceOf(type);
            Session before = h.session;
            Transition t = h.engine.step(before, input, h.now);
            assertThat(t).isNotNull();
            assertThat(!t.effects().isEmpty() || !t.session().equals(before))
                    .as("%s changed the session or asked for effects (effects: %s)", type.getSimpleName(), t.effects())
                    .isTrue();
        })));
        return tests;
    }

    @Test
    void aStaleResultChangesNothing() {
        // the check above can tell an input handled from one ignored: a superseded call's result is ignored
        EngineHarness h = EngineHarness.a2a();
        h.chat("m1", "hello");
        long stale = h.call(Effect.FetchCard.class).gen() - 1;
        Session before = h.session;
        Transition t = h.engine.step(before, new Input.CardFetched(stale, Wire.card10()), h.now);
        assertThat(t.effects()).isEmpty();
        assertThat(t.session()).isEqualTo(before);
    }

    @Test
    void everyPermittedEffectHasOneHandler() {
        Set<String> listed = new TreeSet<>(names(RUN_BY_THE_DRIVER));
        listed.addAll(names(COMMITTED_WITH_THE_STEP));
        assertThat(listed).as("the Effects listed here").isEqualTo(names(leaves(Effect.class)));
        assertThat(names(RUN_BY_THE_DRIVER)).as("an Effect is run by the driver or committed with the step, not both")
                .doesNotContainAnyElementsOf(names(COMMITTED_WITH_THE_STEP));
    }

    @Test
    void theDriverRunsEachOfItsEffects() throws IOException {
        String runOne = body(Files.readString(DRIVER), "void run(LiveThread live, Session session, Effect e)");
        assertThat(names(RUN_BY_THE_DRIVER)).allSatisfy(name -> assertThat(dispatches(runOne, name))
                .as("EffectRunner.run has a branch for Effect.%s", name).isTrue());
    }

    @Test
    void theChatStoreCommitsEachOfItsEffects() throws IOException {
        String loop = body(Files.readString(CHAT_STORE), "for (Effect e : effects)");
        assertThat(names(COMMITTED_WITH_THE_STEP)).allSatisfy(name -> assertThat(dispatches(loop, name))
                .as("ChatStore.commitStep has a branch for Effect.%s", name).isTrue());
    }

    /** The concrete types a sealed type permits, through sealed sub-interfaces ({@link Input.Result}). */
    private static <T> Set<Class<? extends T>> leaves(Class<T> sealed) {
        Set<Class<? extends T>> found = new java.util.LinkedHashSet<>();
        collect(sealed, sealed, found);
        assertThat(found).as("permitted subtypes of %s", sealed.getSimpleName()).isNotEmpty();
        return found;
    }

    @SuppressWarnings("unchecked")
    private static <T> void collect(Class<T> root, Class<?> type, Set<Class<? extends T>> found) {
        if (type.isSealed()) {
            for (Class<?> sub : type.getPermittedSubclasses()) {
                collect(root, sub, found);
            }
        } else {
            assertThat(type.isInterface() || java.lang.reflect.Modifier.isAbstract(type.getModifiers()))
                    .as("%s is a concrete subtype", type.getName()).isFalse();
            found.add((Class<? extends T>) type);
        }
    }

    private static Set<String> names(Set<? extends Class<?>> types) {
        Set<String> names = new TreeSet<>();
        types.forEach(c -> names.add(c.getSimpleName()));
        return names;
    }

    /** An {@code instanceof Effect.Name} test in code (comments do not count: they are cut out first). */
    private static boolean dispatches(String code, String name) {
        return Pattern.compile("\\binstanceof\\s+Effect\\." + name + "\\b").matcher(code).find();
    }

    /** The block that follows {@code start} in {@code source}, comments removed, braces balanced. */
    private static String body(String source, String start) {
        int at = source.indexOf(start);
        assertThat(at).as("%s in the source", start).isNotNegative();
        int open = source.indexOf('{', at);
        int depth = 0;
        for (int i = open; i < source.length(); i++) {
            char c = source.charAt(i);
            if (c == '{') {
                depth++;
            } else if (c == '}' && --depth == 0) {
                return source.substring(open, i + 1).replaceAll("(?s)/\\*.*?\\*/", "").replaceAll("//[^\n]*", "");
            }
        }
        throw new AssertionError("unbalanced braces after " + start);
    }
}
