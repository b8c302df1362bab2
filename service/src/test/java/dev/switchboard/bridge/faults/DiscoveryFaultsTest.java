package dev.switchboard.bridge.faults;

import static dev.switchboard.bridge.faults.FaultBridge.GIVE_UP_AFTER;
import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.bridge.engine.Notices;
import dev.switchboard.bridge.support.ChatApi.Post;
import dev.switchboard.bridge.support.ChatApi.Sent;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.http.HttpServer;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;

/**
 * The seed's Discovery and transport table against agents whose cards break it: no streaming, no
 * JSON-RPC interface, a required extension the a2a dialect does not speak, no card at all, and a
 * backend that rejects the credentials at the card fetch.
 */
@ServerTest
class DiscoveryFaultsTest extends FaultTest {

    HttpServer locked;
    HttpServer cardless;
    final AtomicInteger lockedCalls = new AtomicInteger();
    final List<Instant> cardFetches = new CopyOnWriteArrayList<>();

    @Override
    FaultBridge.Builder agents(FaultBridge.Builder builder) {
        // a backend that answers every call, the card fetch included, with 401
        locked = builder.vertx().createHttpServer().requestHandler(req -> {
            lockedCalls.incrementAndGet();
            req.response().setStatusCode(401).putHeader("WWW-Authenticate", "Bearer").end();
        }).listen(0, "127.0.0.1").await();
        // a backend with no card (404), and nothing else
        cardless = builder.vertx().createHttpServer().requestHandler(req -> {
            if (req.path().endsWith("/.well-known/agent-card.json")) {
                cardFetches.add(Instant.now());
            }
            req.response().setStatusCode(404).end();
        }).listen(0, "127.0.0.1").await();
        return builder
                .agent("nostream", TestAgentOptions.echo("nostream").withStreaming(false))
                .agent("grpc", TestAgentOptions.echo("grpc").withInterfaceBinding("GRPC"))
                .agent("extension", TestAgentOptions.echo("extension").withRequiredExtension("https://example.com/ext/secret"))
                .backend("nocard", "http://127.0.0.1:" + cardless.actualPort() + "/", null)
                .backend("locked", "http://127.0.0.1:" + locked.actualPort() + "/", null);
    }

    @Test
    void aCardWithoutStreamingIsRefusedAndTheNonStreamingSendIsNeverUsed() {
        Sent sent = chat.newThread("nostream", "hello?");

        assertThat(chat.awaitFinal(sent).state()).isEqualTo("not_delivered");
        assertThat(chat.notices(sent.threadId(), sent.messageId())).containsExactly(Notices.refused(Notices.NO_STREAMING));
        assertThat(bridge.recorder("nostream").rpcRequests()).as("no send of any kind").isEmpty();
        assertThat(bridge.recorder("nostream").requests()).extracting(RecordedRequest::path)
                .containsExactly("/.well-known/agent-card.json");
    }

    @Test
    void aCardWithNoJsonRpcInterfaceFailsTheTurn() {
        Sent sent = chat.newThread("grpc", "hello?");

        assertThat(chat.awaitFinal(sent).state()).isEqualTo("not_delivered");
        assertThat(chat.notices(sent.threadId(), sent.messageId()))
                .containsExactly("The message was not delivered: agent card lists no JSON-RPC interface.");
        assertThat(bridge.recorder("grpc").rpcRequests()).isEmpty();
    }

    @Test
    void aCardRequiringAnExtensionTheDialectDoesNotSpeakFailsTheConnect() {
        Sent sent = chat.newThread("extension", "hello?");

        assertThat(chat.awaitFinal(sent).state()).isEqualTo("not_delivered");
        assertThat(chat.notices(sent.threadId(), sent.messageId()))
                .containsExactly("The message was not delivered: agent requires an unsupported extension.");
        assertThat(bridge.recorder("extension").rpcRequests()).isEmpty();
    }

    @Test
    void aCardThatCannotBeFetchedIsRetriedThenTheTurnFailsAfterGiveUpAfter() {
        Sent sent = chat.newThread("nocard", "anyone?");

        Post post = chat.awaitFinal(sent);
        assertThat(post.state()).isEqualTo("not_delivered");
        assertThat(chat.notices(sent.threadId(), sent.messageId())).containsExactly(Notices.unreachable());
        assertThat(cardFetches).as("retried").hasSizeGreaterThanOrEqualTo(3);
        Post notice = chat.posts(sent.threadId(), sent.messageId(), "notice").get(0);
        assertThat(Duration.between(cardFetches.get(0), notice.createdAt()))
                .isGreaterThanOrEqualTo(GIVE_UP_AFTER.minusMillis(150));
    }

    @Test
    void credentialsRejectedAtTheCardFetchFailTheTurnWithoutARetryAndAreCounted() {
        Sent rejected = chat.newThread("locked", "let me in");

        assertThat(chat.awaitFinal(rejected).state()).isEqualTo("not_delivered");
        assertThat(chat.notices(rejected.threadId(), rejected.messageId())).containsExactly(Notices.CREDENTIALS_REJECTED);
        Awaitility.await("no retry").during(Duration.ofMillis(900))
                .until(() -> lockedCalls.get() == 1);
        assertThat(bridge.counter("switchboard_credential_rejections_total",
                Map.of("backend", "locked", "binding", "web-locked"))).isEqualTo(1.0);
    }
}
