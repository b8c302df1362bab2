package dev.switchboard.testkit;

import io.vertx.core.Vertx;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Plays scripts against tasks, pausing on Vert.x timers so no event loop ever sleeps. */
final class ScriptPlayer {

    private final Vertx vertx;
    private final Set<Long> timers = ConcurrentHashMap.newKeySet();

    ScriptPlayer(Vertx vertx) {
        this.vertx = vertx;
    }

    void play(AgentTask task, Script script) {
        playFrom(task, script.steps(), 0);
    }

    /** Runs {@code action} after {@code millis}, unless the agent stops first. */
    void schedule(long millis, Runnable action) {
        timers.add(vertx.setTimer(Math.max(1, millis), id -> {
            timers.remove(id);
            action.run();
        }));
    }

    /** Cancels every pending pause; the tasks stay as they are. */
    void stop() {
        timers.forEach(vertx::cancelTimer);
        timers.clear();
    }

    private void playFrom(AgentTask task, List<Script.Step> steps, int from) {
        for (int i = from; i < steps.size(); i++) {
            if (task.status().state().isTerminal()) {
                return; // canceled while the script ran
            }
            Script.Step step = steps.get(i);
            if (step instanceof Script.Pause pause && pause.millis() > 0) {
                int next = i + 1;
                schedule(pause.millis(), () -> playFrom(task, steps, next));
                return;
            }
            if (step instanceof Script.SetStatus set) {
                task.setStatus(set.state(), set.text(), set.metadata());
            } else if (step instanceof Script.SetStatusParts set) {
                task.setStatus(set.state(), set.parts(), null);
            } else if (step instanceof Script.HitlPause pause) {
                task.pauseForHitl(pause.request());
            } else if (step instanceof Script.AddChunk chunk) {
                task.addChunk(chunk.text(), chunk.append(), chunk.lastChunk());
            }
        }
    }
}
