package dev.switchboard.chat.slack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.bridge.store.Post;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How a kagent turn's step cards become the task chunks of its streamed steps message ({@link NativeSteps}). */
class NativeStepsTest {

    private static final Instant NOW = Instant.parse("2026-12-05T10:00:00Z");

    private static Post step(int seq, JsonObject data) {
        return new Post("s" + seq, "t", seq, Post.STEP, data.getString("name"), null, "m1", null, NOW, NOW, data.encode());
    }

    private static JsonObject call(String id, String name, String args) {
        return new JsonObject().put("kind", "call").put("id", id).put("name", name).put("detail", args);
    }

    private static JsonObject result(String id, String name, String out, boolean error) {
        return new JsonObject().put("kind", "result").put("id", id).put("name", name).put("detail", out).put("error", error);
    }

    @Test
    void aCallIsInProgressUntilItsResultCompletesOrFailsIt() {
        JsonArray calling = NativeSteps.tasks(List.of(step(1, call("c1", "get_pods", "{\"ns\":\"default\"}"))));
        assertThat(calling).hasSize(1);
        assertThat(calling.getJsonObject(0)).isEqualTo(new JsonObject().put("type", "task_update").put("id", "c1")
                .put("title", "get_pods").put("status", "in_progress").put("details", "{\"ns\":\"default\"}"));

        JsonArray done = NativeSteps.tasks(List.of(step(1, call("c1", "get_pods", "{}")),
                step(2, call("c2", "delete_pod", "{\"name\":\"web-1\"}")), step(3, result("c1", "get_pods", "3 pods", false)),
                step(4, result("c2", "delete_pod", "forbidden", true))));
        assertThat(done).hasSize(2);
        assertThat(done.getJsonObject(0).getString("status")).isEqualTo("complete");
        assertThat(done.getJsonObject(0).getString("output")).isEqualTo("3 pods");
        assertThat(done.getJsonObject(1).getString("status")).isEqualTo("error");
        assertThat(done.getJsonObject(1).getString("output")).isEqualTo("forbidden");
        assertThat(done.getJsonObject(1).getString("details")).isEqualTo("{\"name\":\"web-1\"}");
    }

    @Test
    void onlyTheTasksThatChangedAreAppended() {
        JsonArray before = NativeSteps.tasks(List.of(step(1, call("c1", "a", "{}")), step(2, call("c2", "b", "{}"))));
        JsonArray after = NativeSteps.tasks(List.of(step(1, call("c1", "a", "{}")), step(2, call("c2", "b", "{}")),
                step(3, result("c2", "b", "ok", false)), step(4, call("c3", "c", "{}"))));
        JsonArray changed = NativeSteps.changed(before, after);
        assertThat(changed.stream().map(o -> ((JsonObject) o).getString("id")).toList()).containsExactly("c2", "c3");
        assertThat(NativeSteps.changed(after, after)).isEmpty();
    }

    @Test
    void textsFitSlacksLimitsAndOnlyTheLatestTasksAreKept() {
        List<Post> turn = new ArrayList<>();
        turn.add(step(0, call(null, "t".repeat(300), "x".repeat(1000))));
        for (int i = 1; i <= 60; i++) {
            turn.add(step(i, call("c" + i, "tool" + i, "{}")));
        }
        JsonArray all = NativeSteps.tasks(List.of(turn.get(0)));
        JsonObject first = all.getJsonObject(0);
        assertThat(first.getString("id")).as("a card without an id is named by its place").isEqualTo("step-1");
        assertThat(first.getString("title")).hasSize(NativeSteps.TASK_TEXT);
        assertThat(first.getString("details")).hasSize(NativeSteps.TASK_TEXT).endsWith("…");
        JsonArray many = NativeSteps.tasks(turn);
        assertThat(many).hasSize(NativeSteps.MAX_TASKS);
        assertThat(many.getJsonObject(NativeSteps.MAX_TASKS - 1).getString("id")).isEqualTo("c60");
    }
}
