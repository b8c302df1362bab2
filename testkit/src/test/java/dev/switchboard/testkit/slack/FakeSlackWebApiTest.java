package dev.switchboard.testkit.slack;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.slack.api.Slack;
import com.slack.api.methods.MethodsClient;
import com.slack.api.methods.SlackApiException;
import com.slack.api.methods.response.auth.AuthTestResponse;
import com.slack.api.methods.response.chat.ChatPostMessageResponse;
import com.slack.api.methods.response.chat.ChatUpdateResponse;
import com.slack.api.methods.response.conversations.ConversationsRepliesResponse;
import com.slack.api.methods.response.users.UsersInfoResponse;
import com.slack.api.model.Message;
import com.slack.api.model.block.Blocks;
import com.slack.api.model.block.composition.BlockCompositions;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The Web API through the official SDK's synchronous MethodsClient (okhttp, form-encoded). */
class FakeSlackWebApiTest extends FakeSlackTestSupport {

    private MethodsClient bot() {
        return slack.methods(fake.options().botToken());
    }

    @Test
    void authTestNamesTheBot() throws Exception {
        AuthTestResponse auth = bot().authTest(r -> r);
        assertThat(auth.isOk()).isTrue();
        assertThat(auth.getUserId()).isEqualTo("UBOT");
        assertThat(auth.getTeamId()).isEqualTo("T0001");
        assertThat(auth.getBotId()).isEqualTo("B0001");
        assertThat(fake.calls("auth.test")).last()
                .satisfies(c -> assertThat(c.token()).isEqualTo(FakeSlackOptions.DEFAULT_BOT_TOKEN));
    }

    @Test
    void postsReplyInAThreadWithIncreasingTs() throws Exception {
        String parent = fake.postAsUser("C1", null, "U1", "<@UBOT> hello");
        ChatPostMessageResponse first = bot().chatPostMessage(r -> r.channel("C1").threadTs(parent).text("thinking…"));
        ChatPostMessageResponse second = bot().chatPostMessage(r -> r.channel("C1").threadTs(parent).text("done"));

        assertThat(first.isOk()).isTrue();
        assertThat(first.getChannel()).isEqualTo("C1");
        assertThat(first.getMessage().getBotId()).isEqualTo("B0001");
        assertThat(first.getMessage().getUser()).isEqualTo("UBOT");
        assertThat(new java.math.BigDecimal(parent)).isLessThan(new java.math.BigDecimal(first.getTs()));
        assertThat(new java.math.BigDecimal(first.getTs())).isLessThan(new java.math.BigDecimal(second.getTs()));
        assertThat(parent).matches("\\d{10}\\.\\d{6}");

        List<SlackMessage> thread = fake.thread("C1", parent);
        assertThat(thread).extracting(SlackMessage::text).containsExactly("<@UBOT> hello", "thinking…", "done");
        assertThat(thread.get(1).threadTs()).isEqualTo(parent);
        assertThat(fake.botMessages("C1")).hasSize(2);
        assertThat(fake.calls("chat.postMessage").get(0).params())
                .containsEntry("channel", "C1").containsEntry("thread_ts", parent).containsEntry("text", "thinking…");
    }

    @Test
    void postWithoutTextOrBlocksIsNoText() throws Exception {
        ChatPostMessageResponse response = bot().chatPostMessage(r -> r.channel("C1"));
        assertThat(response.isOk()).isFalse();
        assertThat(response.getError()).isEqualTo("no_text");
        assertThat(fake.messages("C1")).isEmpty();
    }

    @Test
    void blocksArriveAsJsonTextInAFormField() throws Exception {
        ChatPostMessageResponse response = bot().chatPostMessage(r -> r.channel("C1").text("fallback")
                .blocks(List.of(Blocks.section(s -> s.text(BlockCompositions.markdownText("*bold*"))))));
        assertThat(response.isOk()).isTrue();
        String blocks = fake.messages("C1").get(0).blocks();
        assertThat(blocks).startsWith("[").contains("\"type\":\"section\"").contains("*bold*");
        assertThat(response.getMessage().getBlocks()).hasSize(1);
    }

    @Test
    void updateEditsAndKeepsEveryVersion() throws Exception {
        String ts = bot().chatPostMessage(r -> r.channel("C1").text("v1")).getTs();
        ChatUpdateResponse update = bot().chatUpdate(r -> r.channel("C1").ts(ts).text("v2"));
        bot().chatUpdate(r -> r.channel("C1").ts(ts).text("v3"));

        assertThat(update.isOk()).isTrue();
        assertThat(update.getTs()).isEqualTo(ts);
        SlackMessage message = fake.messages("C1").get(0);
        assertThat(message.text()).isEqualTo("v3");
        assertThat(message.edits()).isEqualTo(2);
        assertThat(message.texts()).containsExactly("v1", "v2", "v3");

        ChatUpdateResponse unknown = bot().chatUpdate(r -> r.channel("C1").ts("1.000001").text("x"));
        assertThat(unknown.getError()).isEqualTo("message_not_found");
    }

    @Test
    void repliesCarryMetadataOnlyWhenAsked() throws Exception {
        String parent = fake.postAsUser("C1", null, "U1", "question");
        Message.Metadata metadata = Message.Metadata.builder()
                .eventType("switchboard_turn")
                .eventPayload(Map.of("turn_id", "t-1", "attempt", 2))
                .build();
        bot().chatPostMessage(r -> r.channel("C1").threadTs(parent).text("answer").metadata(metadata));

        String sentMetadata = fake.calls("chat.postMessage").get(0).param("metadata");
        assertThat(sentMetadata).contains("\"event_type\":\"switchboard_turn\"").contains("\"event_payload\"");

        ConversationsRepliesResponse with = bot().conversationsReplies(r -> r.channel("C1").ts(parent)
                .includeAllMetadata(true));
        assertThat(with.getMessages()).extracting(Message::getText).containsExactly("question", "answer");
        Message.Metadata got = with.getMessages().get(1).getMetadata();
        assertThat(got.getEventType()).isEqualTo("switchboard_turn");
        assertThat(got.getEventPayload()).containsEntry("turn_id", "t-1");
        // the SDK sends booleans as "1"/"0"
        assertThat(fake.calls("conversations.replies").get(0).param("include_all_metadata")).isEqualTo("1");

        ConversationsRepliesResponse without = bot().conversationsReplies(r -> r.channel("C1").ts(parent));
        assertThat(without.getMessages().get(1).getMetadata()).isNull();
        assertThat(fake.calls("conversations.replies").get(1).param("include_all_metadata")).isEqualTo("0");
    }

    @Test
    void repliesPageWithLimitAndCursor() throws Exception {
        String parent = fake.postAsUser("C1", null, "U1", "m0");
        for (int i = 1; i <= 4; i++) {
            fake.postAsUser("C1", parent, "U1", "m" + i);
        }
        fake.postAsUser("C1", null, "U1", "elsewhere");

        ConversationsRepliesResponse page1 = bot().conversationsReplies(r -> r.channel("C1").ts(parent).limit(2));
        ConversationsRepliesResponse page2 = bot().conversationsReplies(r -> r.channel("C1").ts(parent).limit(2)
                .cursor(page1.getResponseMetadata().getNextCursor()));
        ConversationsRepliesResponse page3 = bot().conversationsReplies(r -> r.channel("C1").ts(parent).limit(2)
                .cursor(page2.getResponseMetadata().getNextCursor()));

        assertThat(page1.getMessages()).extracting(Message::getText).containsExactly("m0", "m1");
        assertThat(page2.getMessages()).extracting(Message::getText).containsExactly("m2", "m3");
        assertThat(page3.getMessages()).extracting(Message::getText).containsExactly("m4");
        assertThat(page3.getResponseMetadata().getNextCursor()).isEmpty();
        assertThat(bot().conversationsReplies(r -> r.channel("C1").ts("9.000001")).getError())
                .isEqualTo("thread_not_found");
    }

    @Test
    void usersInfoShowsEmailOnlyWithTheScope() throws Exception {
        fake.addUser("U1", "ada", "Ada Lovelace", "ada@example.com");
        UsersInfoResponse info = bot().usersInfo(r -> r.user("U1"));
        assertThat(info.getUser().getId()).isEqualTo("U1");
        assertThat(info.getUser().getRealName()).isEqualTo("Ada Lovelace");
        assertThat(info.getUser().getProfile().getDisplayName()).isEqualTo("ada");
        assertThat(info.getUser().getProfile().getEmail()).isEqualTo("ada@example.com");
        assertThat(bot().usersInfo(r -> r.user("U404")).getError()).isEqualTo("user_not_found");

        FakeSlack noEmail = start(FakeSlackOptions.defaults().withEmailScope(false));
        noEmail.addUser("U1", "ada", "Ada Lovelace", "ada@example.com");
        try (Slack other = sdkFor(noEmail)) {
            UsersInfoResponse limited = other.methods(noEmail.options().botToken()).usersInfo(r -> r.user("U1"));
            assertThat(limited.isOk()).isTrue();
            assertThat(limited.getUser().getProfile().getEmail()).isNull();
            assertThat(limited.getUser().getProfile().getRealName()).isEqualTo("Ada Lovelace");
        }
    }

    @Test
    void wrongTokenIsInvalidAuth() throws Exception {
        assertThat(slack.methods("xoxb-wrong-token-0000").chatPostMessage(r -> r.channel("C1").text("x")).getError())
                .isEqualTo("invalid_auth");
        // the app token is for apps.connections.open only, and the bot token is not for it
        assertThat(slack.methods(fake.options().appToken()).authTest(r -> r).getError()).isEqualTo("invalid_auth");
        assertThat(bot().appsConnectionsOpen(r -> r).getError()).isEqualTo("invalid_auth");
        assertThat(slack.methods(fake.options().appToken()).appsConnectionsOpen(r -> r).getUrl())
                .startsWith("ws://127.0.0.1:" + fake.port() + "/socket?ticket=");
        assertThat(fake.messages("C1")).isEmpty();
    }

    @Test
    void unknownMethod() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(fake.apiUrl() + "chat.frobnicate"))
                .header("Authorization", "Bearer " + fake.options().botToken())
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString("{\"channel\":\"C1\"}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.body()).contains("\"ok\":false").contains("unknown_method");
    }

    @Test
    void jsonBodiesWorkToo() throws Exception {
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(
                        URI.create(fake.apiUrl() + "chat.postMessage"))
                .header("Authorization", "Bearer " + fake.options().botToken())
                .header("Content-Type", "application/json; charset=utf-8")
                .POST(HttpRequest.BodyPublishers.ofString(
                        "{\"channel\":\"C1\",\"text\":\"hi\",\"metadata\":{\"event_type\":\"e\",\"event_payload\":{}}}"))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertThat(response.body()).contains("\"ok\":true");
        assertThat(fake.messages("C1").get(0).metadata()).isEqualTo("{\"event_type\":\"e\",\"event_payload\":{}}");
    }

    @Test
    void rateLimitedCallsAre429WithRetryAfterAndDoNothing() throws Exception {
        fake.rateLimit("chat.update", 2, 7);
        String ts = bot().chatPostMessage(r -> r.channel("C1").text("v1")).getTs();

        for (int i = 0; i < 2; i++) {
            assertThatThrownBy(() -> bot().chatUpdate(r -> r.channel("C1").ts(ts).text("v2")))
                    .isInstanceOfSatisfying(SlackApiException.class, e -> {
                        assertThat(e.getResponse().code()).isEqualTo(429);
                        assertThat(e.getResponse().header("Retry-After")).isEqualTo("7");
                        assertThat(e.getError().getError()).isEqualTo("ratelimited");
                    });
        }
        assertThat(fake.messages("C1").get(0).edits()).isZero();
        assertThat(bot().chatUpdate(r -> r.channel("C1").ts(ts).text("v2")).isOk()).isTrue();
        assertThat(fake.calls("chat.update")).hasSize(3);
    }

    @Test
    void droppedPostIsStoredButTheCallerGetsNoAnswer() throws Exception {
        fake.dropAfterPerforming("chat.postMessage", 1);
        assertThatThrownBy(() -> bot().chatPostMessage(r -> r.channel("C1").text("lost answer")))
                .isInstanceOf(IOException.class);
        // okhttp did not silently resend the POST: one call, one message
        assertThat(fake.calls("chat.postMessage")).hasSize(1);
        assertThat(fake.messages("C1")).extracting(SlackMessage::text).containsExactly("lost answer");
        assertThat(bot().chatPostMessage(r -> r.channel("C1").text("next")).isOk()).isTrue();
    }
}
