package dev.switchboard.testkit.slack;

import static org.assertj.core.api.Assertions.assertThat;

import com.slack.api.methods.MethodsClient;
import com.slack.api.methods.response.chat.ChatAppendStreamResponse;
import com.slack.api.methods.response.chat.ChatStartStreamResponse;
import com.slack.api.methods.response.chat.ChatStopStreamResponse;
import io.vertx.core.json.JsonObject;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Native streaming through the official SDK: chat.startStream / appendStream / stopStream with text (its typed
 * requests) and with {@code chunks} (the form written by hand, as the service does: the SDK's typed requests lack
 * the field), and what the fake refuses.
 */
class FakeSlackStreamingTest extends FakeSlackTestSupport {

    /** A workspace that takes the stream methods (the default one answers unknown_method), and the SDK on it. */
    private MethodsClient streamingBot() throws Exception {
        fake = start(FakeSlackOptions.defaults().withNativeStreaming(true));
        slack.close();
        slack = sdkFor(fake);
        return slack.methods(fake.options().botToken());
    }

    @Test
    void textIsAppendedAndTheStreamStops() throws Exception {
        MethodsClient bot = streamingBot();
        String parent = fake.postAsUser("C1", null, "U1", "<@UBOT> hi");
        ChatStartStreamResponse nobody = bot.chatStartStream(r -> r.channel("C1").threadTs(parent).markdownText("Hel"));
        assertThat(nobody.getError()).as("a channel stream names its recipient").isEqualTo("invalid_arguments");
        ChatStartStreamResponse start = bot.chatStartStream(r -> r.channel("C1").threadTs(parent).markdownText("Hel")
                .recipientUserId("U1").recipientTeamId(fake.options().teamId()));
        assertThat(start.isOk()).isTrue();
        bot.chatAppendStream(r -> r.channel("C1").ts(start.getTs()).markdownText("lo"));
        ChatStopStreamResponse stop = bot.chatStopStream(r -> r.channel("C1").ts(start.getTs()).markdownText("!"));
        assertThat(stop.isOk()).isTrue();
        SlackMessage m = fake.thread("C1", parent).get(1);
        assertThat(m.text()).isEqualTo("Hello!");
        assertThat(m.streaming()).isFalse();
        ChatAppendStreamResponse late = bot.chatAppendStream(r -> r.channel("C1").ts(start.getTs()).markdownText("x"));
        assertThat(late.getError()).isEqualTo("message_not_in_streaming_state");
    }

    @Test
    void taskChunksUpdateTheirTasks() throws Exception {
        MethodsClient bot = streamingBot();
        String token = fake.options().botToken();
        String parent = fake.postAsUser("C1", null, "U1", "<@UBOT> hi");
        ChatStartStreamResponse start = bot.postFormWithTokenAndParseResponse(f -> f.add("channel", "C1")
                .add("recipient_user_id", "U1").add("recipient_team_id", fake.options().teamId())
                .add("thread_ts", parent).add("chunks", "[{\"type\":\"task_update\",\"id\":\"c1\",\"title\":\"get_pods\","
                        + "\"status\":\"in_progress\"}]"), "chat.startStream", token, ChatStartStreamResponse.class);
        assertThat(start.isOk()).isTrue();
        ChatAppendStreamResponse append = bot.postFormWithTokenAndParseResponse(f -> f.add("channel", "C1")
                .add("ts", start.getTs()).add("chunks", "[{\"type\":\"task_update\",\"id\":\"c1\",\"title\":\"get_pods\","
                        + "\"status\":\"complete\",\"output\":\"3 pods\"},{\"type\":\"markdown_text\",\"text\":\"done\"}]"),
                "chat.appendStream", token, ChatAppendStreamResponse.class);
        assertThat(append.isOk()).isTrue();
        SlackMessage m = fake.thread("C1", parent).get(1);
        assertThat(m.tasks()).hasSize(1);
        assertThat(new JsonObject(m.tasks().get(0)).getString("status")).isEqualTo("complete");
        assertThat(m.text()).isEqualTo("done");

        for (String bad : List.of("not json", "[{\"type\":\"task_update\",\"id\":\"c2\",\"title\":\"t\",\"status\":\"done\"}]",
                "[{\"type\":\"task_update\",\"title\":\"t\",\"status\":\"pending\"}]", "[{\"type\":\"video\"}]",
                "[{\"type\":\"task_update\",\"id\":\"c3\",\"title\":\"t\",\"status\":\"pending\",\"output\":\""
                        + "x".repeat(257) + "\"}]")) {
            ChatAppendStreamResponse refused = bot.postFormWithTokenAndParseResponse(f -> f.add("channel", "C1")
                    .add("ts", start.getTs()).add("chunks", bad), "chat.appendStream", token, ChatAppendStreamResponse.class);
            assertThat(refused.getError()).as(bad).isEqualTo("invalid_chunks");
        }
    }
}
