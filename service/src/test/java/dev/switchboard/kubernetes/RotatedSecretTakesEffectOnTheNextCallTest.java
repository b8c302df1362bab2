package dev.switchboard.kubernetes;

import static dev.switchboard.kubernetes.FakeCluster.backend;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.gateway.support.TestHttp;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestAgent;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Watch mode, credentials: a Secret changed in the cluster is used from the next call on, through the gateway and
 * the chat bridge alike, and the agent's card is fetched again with it (the seed: a changed credential may change
 * what the agent shows).
 */
@ServerTest
class RotatedSecretTakesEffectOnTheNextCallTest {

    @RegisterExtension
    final FakeCluster cluster = FakeCluster.withAgents("echo");

    @Test
    void theGatewaySendsTheNewBearerTokenAndFetchesTheCardAgain() {
        TestAgent agent = cluster.agent();
        cluster.backendSecret("echo-token", "token", "first-token-0123456789");
        cluster.apply("""
                apiVersion: switchboard.dev/v1
                kind: AgentBackend
                metadata: {name: echo}
                spec:
                  url: %s
                  auth: {tokenSecretRef: {name: echo-token, key: token}}
                """.formatted(agent.url()));
        cluster.start();
        cluster.awaitReady("AgentBackend", "echo", "True");
        TestHttp http = cluster.http();
        assertThat(http.rpc("echo", Rpc.send(1, "hi")).json().has("result")).isTrue();
        assertThat(agent.recorder().lastRequest().header("Authorization")).isEqualTo("Bearer first-token-0123456789");
        assertThat(http.get("/a2a/echo/.well-known/agent-card.json").status()).isEqualTo(200);
        assertThat(cardFetches()).extracting(r -> r.header("Authorization"))
                .containsExactly("Bearer first-token-0123456789");
        // cached: asking again does not fetch again
        assertThat(http.get("/a2a/echo/.well-known/agent-card.json").status()).isEqualTo(200);
        assertThat(cardFetches()).hasSize(1);

        cluster.backendSecret("echo-token", "token", "second-token-0123456789");
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(50)).alias("the new token is sent")
                .until(() -> {
                    Reply r = http.rpc("echo", Rpc.send(2, "hi again"));
                    return r.json().has("result") && "Bearer second-token-0123456789".equals(
                            agent.recorder().lastRequest().header("Authorization"));
                });
        assertThat(http.get("/a2a/echo/.well-known/agent-card.json").status()).isEqualTo(200);
        assertThat(cardFetches()).extracting(r -> r.header("Authorization"))
                .containsExactly("Bearer first-token-0123456789", "Bearer second-token-0123456789");
    }

    @Test
    void aBindingsTurnCarriesTheRotatedIdentityTokenAndItsCardIsFetchedAgain() {
        cluster.backendSecret("alice", "token", "alice-token-one-0123456789");
        cluster.apply(backend("echo", cluster.agent().url()));
        cluster.apply("""
                apiVersion: switchboard.dev/v1
                kind: Binding
                metadata: {name: ops}
                spec:
                  backendRef: {name: echo}
                  chat: {platform: web, channels: [ops]}
                  identity: {tokenSecretRef: {name: alice, key: token}}
                """);
        ChatApi chat = new ChatApi(cluster.start().app().baseUrl());
        cluster.awaitReady("Binding", "ops", "True");
        ChatApi.Sent first = chat.newThread("ops", "hello");
        assertThat(chat.awaitFinal(first).state()).isEqualTo("completed");
        assertThat(sends()).extracting(r -> r.header("Authorization")).containsOnly("Bearer alice-token-one-0123456789");
        assertThat(cardFetches()).extracting(r -> r.header("Authorization"))
                .containsExactly("Bearer alice-token-one-0123456789");

        cluster.backendSecret("alice", "token", "alice-token-two-0123456789");
        // the watch applies the change within moments; every turn after it carries the new token
        await().atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100)).alias("a turn with the new token")
                .until(() -> {
                    ChatApi.Sent next = chat.newThread("ops", "again");
                    chat.awaitFinal(next);
                    return "Bearer alice-token-two-0123456789".equals(sends().get(sends().size() - 1).header("Authorization"));
                });
        assertThat(cardFetches()).extracting(r -> r.header("Authorization"))
                .endsWith("Bearer alice-token-two-0123456789");
    }

    private List<RecordedRequest> cardFetches() {
        return cluster.agent().recorder().requests().stream()
                .filter(r -> r.httpMethod().equals("GET") && r.path().endsWith("agent-card.json")).toList();
    }

    private List<RecordedRequest> sends() {
        return cluster.agent().recorder().rpcRequests().stream().filter(RecordedRequest::isSend).toList();
    }
}
