package dev.switchboard.chat.slack;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.bridge.engine.Actor;
import dev.switchboard.bridge.store.Post;
import dev.switchboard.protocol.kagent.Hitl;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** How kagent-v1 posts look as Block Kit, within Slack's limits and escaped. */
class SlackBlocksTest {

    private static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");

    private static Post turn(String state) {
        return new Post("m1", "t", 1, Post.USER, "hi", new Actor("U1", "Ada", null), "m1", state, NOW, NOW);
    }

    private static Post question(long seq, Hitl.Request request) {
        return new Post("q1", "t", seq, Post.QUESTION, request.display(), null, "m1", null, NOW, NOW, Hitl.write(request));
    }

    private static List<JsonObject> blocks(SlackBlocks.Rendered r) {
        return new JsonArray(r.blocks()).stream().map(JsonObject.class::cast).toList();
    }

    private static List<JsonObject> elements(SlackBlocks.Rendered r) {
        return blocks(r).stream().filter(b -> "actions".equals(b.getString("type")))
                .flatMap(b -> b.getJsonArray("elements").stream().map(JsonObject.class::cast)).toList();
    }

    @Test
    void anApprovalEscapesAndCutsItsArgumentsAndKeepsItsButtonValuesShort() {
        String args = new JsonObject().put("cmd", "<!channel> & ```rm -rf```").put("pad", "x".repeat(5_000)).encode();
        Hitl.Request.ToolApproval a = new Hitl.Request.ToolApproval("Approve?", "Deleting <b>", List.of(
                new Hitl.Tool("id-1", "c1", "run_shell", args)), null);
        SlackBlocks.Rendered r = SlackBlocks.question(question(2, a), List.of(turn("waiting_for_answer")), " within 1 h");
        assertThat(r.blocks()).doesNotContain("<!channel>").contains("&lt;!channel&gt; &amp;").contains("&lt;b&gt;")
                .doesNotContain("```rm");
        assertThat(blocks(r)).allSatisfy(b -> {
            if ("section".equals(b.getString("type"))) {
                assertThat(b.getJsonObject("text").getString("text").length()).isLessThanOrEqualTo(SlackBlocks.SECTION_CHARS);
            }
        });
        assertThat(elements(r)).extracting(e -> e.getString("action_id")).containsExactly(SlackBlocks.APPROVE, SlackBlocks.REJECT);
        assertThat(elements(r)).allSatisfy(e -> assertThat(e.getString("value")).isEqualTo("q1"));
        assertThat(r.text()).isNotBlank();
    }

    @Test
    void aSingleSingleChoiceQuestionIsOneButtonPerChoice() {
        Hitl.Request.AskUser u = new Hitl.Request.AskUser("Which?", "ask-1", List.of(
                new Hitl.Question("Which namespace?", List.of("dev", "prod"), false)));
        SlackBlocks.Rendered r = SlackBlocks.question(question(2, u), List.of(turn("waiting_for_answer")), "");
        assertThat(elements(r)).extracting(e -> e.getString("type")).containsExactly("button", "button");
        assertThat(elements(r)).extracting(e -> e.getString("value")).containsExactly("q1|0|0", "q1|0|1");
        assertThat(r.blocks()).doesNotContain(SlackBlocks.SEND).contains("or reply in this thread");
    }

    @Test
    void aSettledQuestionHasNoButtonsAndSaysWhoDecided() {
        Hitl.Request.ToolApproval a = new Hitl.Request.ToolApproval("Approve?", null, List.of(
                new Hitl.Tool("id-1", "c1", "delete_pod", "{}")), null);
        Post answer = new Post("a1", "t", 3, Post.USER, "no, <!here> first", new Actor("U2", "Grace", null), "m1",
                "running", NOW, NOW);
        SlackBlocks.Rendered r = SlackBlocks.question(question(2, a), List.of(turn("running"), question(2, a), answer), "");
        assertThat(elements(r)).isEmpty();
        assertThat(r.blocks()).contains("*Rejected* by Grace: no, &lt;!here&gt; first");
        // still waiting: the buttons stay
        assertThat(elements(SlackBlocks.question(question(2, a), List.of(turn("waiting_for_answer"), question(2, a)), "")))
                .hasSize(2);
        // the turn ended unanswered
        assertThat(SlackBlocks.question(question(2, a), List.of(turn("canceled"), question(2, a)), "").blocks())
                .contains("no longer waiting");
    }

    @Test
    void manyStepCardsKeepToFiftyBlocks() {
        List<Post> turn = new ArrayList<>();
        turn.add(turn("running"));
        for (int i = 0; i < 60; i++) {
            turn.add(new Post("s" + i, "t", 2 + i, Post.STEP, "get_pods", null, "m1", null, NOW, NOW,
                    new JsonObject().put("kind", i % 2 == 0 ? "call" : "result").put("id", "c" + i).put("name", "get_pods")
                            .put("detail", "\"" + "y".repeat(1_000) + "\"").put("error", false).encode()));
        }
        SlackBlocks.Rendered r = SlackBlocks.steps(turn);
        assertThat(blocks(r)).hasSize(SlackBlocks.MAX_BLOCKS);
        assertThat(blocks(r).get(0).encode()).contains("11 earlier steps not shown");
        assertThat(r.text().length()).isLessThanOrEqualTo(SlackPoster.PART_CHARS);
    }
}
