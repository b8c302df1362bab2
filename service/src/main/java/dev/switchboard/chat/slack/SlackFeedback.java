package dev.switchboard.chat.slack;

import dev.switchboard.bridge.AnswerFeedback;
import dev.switchboard.bridge.store.ChatStore;
import dev.switchboard.bridge.store.ChatThread;
import dev.switchboard.bridge.store.Post;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.vertx.core.json.JsonArray;
import io.vertx.core.json.JsonObject;
import java.time.Clock;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * 👍/👎 on every final answer (issue 28): the buttons (Slack's {@code feedback_buttons} in a {@code context_actions}
 * block, under the answer), and a click on them recorded with the answer's turn (one per person and answer; the
 * other button changes it) and counted in {@code switchboard_bridge_feedback_total{binding,value}} when it changes;
 * each change then goes on to {@link AnswerFeedback} (a span in the turn's trace; the agent told, if the Binding asks).
 */
final class SlackFeedback {

    private static final Logger LOG = LoggerFactory.getLogger(SlackFeedback.class);
    /** The action id of the feedback buttons; their values are {@code good:<post id>} and {@code bad:<post id>}. */
    static final String ACTION = "switchboard_feedback";
    static final String GOOD = "good";
    static final String BAD = "bad";

    private final ChatStore chats;
    private final AnswerFeedback answers;
    private final MeterRegistry meters;
    private final Clock clock;

    SlackFeedback(ChatStore chats, AnswerFeedback answers, MeterRegistry meters, Clock clock) {
        this.chats = chats;
        this.answers = answers;
        this.meters = meters;
        this.clock = clock;
    }

    /** The blocks under a final answer: a {@code context_actions} block with the two buttons, as a JSON array. */
    static JsonArray blocks(String postId) {
        return new JsonArray().add(new JsonObject().put("type", "context_actions").put("block_id", "switchboard_feedback")
                .put("elements", new JsonArray().add(new JsonObject().put("type", "feedback_buttons")
                        .put("action_id", ACTION)
                        .put("positive_button", button("👍", "Good answer", GOOD + ":" + postId))
                        .put("negative_button", button("👎", "Bad answer", BAD + ":" + postId)))));
    }

    /** A part's text as a section (blocks replace a message's text), then the feedback buttons. */
    static String withText(String text, String postId) {
        JsonArray blocks = new JsonArray().add(new JsonObject().put("type", "section")
                .put("text", new JsonObject().put("type", "mrkdwn").put("text", text)));
        blocks(postId).forEach(blocks::add);
        return blocks.encode();
    }

    private static JsonObject button(String emoji, String label, String value) {
        return new JsonObject().put("text", new JsonObject().put("type", "plain_text").put("text", emoji))
                .put("accessibility_label", label).put("value", value);
    }

    /**
     * A click on a feedback button by {@code userId} in thread {@code threadId}: recorded when its value names an
     * answer of that thread and the person may talk to its agent ({@code mayAct}, by the thread's Binding: its
     * {@code allowedUsers}); anything else (a forged value, another thread's answer, someone not allowed) is ignored.
     * Blocks.
     */
    void clicked(String threadId, String userId, String value, java.util.function.Predicate<String> mayAct) {
        int colon = value == null ? -1 : value.indexOf(':');
        if (colon <= 0 || value.length() > 200) {
            return;
        }
        String verdict = value.substring(0, colon);
        String postId = value.substring(colon + 1);
        if (!GOOD.equals(verdict) && !BAD.equals(verdict)) {
            return;
        }
        Optional<Post> post = chats.post(threadId, postId).filter(p -> Post.AGENT.equals(p.kind()));
        Optional<ChatThread> thread = chats.thread(threadId);
        if (post.isEmpty() || thread.isEmpty()) {
            LOG.debug("slack: feedback on {} names no answer of thread {}", postId, threadId);
            return;
        }
        String binding = thread.get().binding();
        if (!mayAct.test(binding)) {
            LOG.debug("slack: feedback on {} by {}, who may not talk to binding {}'s agent: ignored", postId, userId, binding);
            return;
        }
        int changed = chats.write(c -> chats.update(c, "INSERT INTO slack_feedback (post_id, user_id, turn_message_id, "
                + "binding, value, given_at) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (post_id, user_id) DO UPDATE SET "
                + "value = excluded.value, given_at = excluded.given_at WHERE slack_feedback.value <> excluded.value",
                postId, userId, post.get().turnMessageId(), binding, verdict, clock.instant().toString()));
        if (changed == 1) {
            Counter.builder("switchboard_bridge_feedback_total").description("Feedback given on agents' answers in Slack")
                    .tag("binding", binding).tag("value", verdict).register(meters).increment();
            answers.given(thread.get(), post.get().turnMessageId(), userId, verdict);
        }
    }
}
