package dev.switchboard.bridge.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.support.ChatApi.Post;
import dev.switchboard.bridge.support.ChatApi;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Many people writing in many threads at the same moment: every message is accepted (the store's
 * writers, one per session lane plus the web routes, must not fail each other) and every turn runs
 * once (B7, B14: a message is in the store before it is sent).
 */
@ServerTest
class ManyThreadsAtOnceTest {

    private static final int THREADS = 16;
    private static final int REPLIES = 2;

    @TempDir
    Path dir;

    @Test
    void everyMessageWrittenAtOnceIsAcceptedAndAnsweredOnce() throws Exception {
        Vertx vertx = Vertx.vertx();
        TestAgent agent = TestAgent.start(vertx, TestAgentOptions.echo("busy").withVersions(ProtocolVersion.V1_0)
                .withDefaultBehavior("/stream 3 5"), 0).await();
        SwitchboardApp app = SwitchboardFixture.builder().vertx(vertx)
                .yaml(ConfigYaml.server(dir.resolve("many.db"), false, ConfigYaml.QUICK_CONTRACT)
                .webAgent("busy", agent.url(), false)).start().app();
        ExecutorService people = Executors.newFixedThreadPool(THREADS);
        try {
            ChatApi chat = new ChatApi(app.baseUrl());
            List<Callable<List<String>>> work = new ArrayList<>();
            for (int i = 0; i < THREADS; i++) {
                int n = i;
                work.add(() -> {
                    List<String> ids = new ArrayList<>();
                    HttpResponse<String> opened = chat.post("/api/chat/channels/busy/threads",
                            ChatApi.body("thread " + n, "t" + n + "-m0"), java.util.Map.of());
                    assertThat(opened.statusCode()).as(opened.body()).isEqualTo(201);
                    String threadId = ChatApi.read(opened.body()).path("threadId").asText();
                    ids.add(threadId);
                    for (int r = 1; r <= REPLIES; r++) {
                        HttpResponse<String> sent = chat.post("/api/chat/threads/" + threadId + "/messages",
                                ChatApi.body("reply " + r + " in thread " + n, "t" + n + "-m" + r), java.util.Map.of());
                        assertThat(sent.statusCode()).as(sent.body()).isEqualTo(201);
                    }
                    return ids;
                });
            }
            List<String> threadIds = new ArrayList<>();
            for (Future<List<String>> f : people.invokeAll(work)) {
                threadIds.add(f.get(30, TimeUnit.SECONDS).get(0));
            }
            for (String threadId : threadIds) {
                List<Post> posts = chat.awaitPosts(threadId, "all turns of " + threadId + " completed",
                        Duration.ofSeconds(30), p -> p.stream().filter(x -> x.isUser() && "completed".equals(x.state()))
                                .count() == REPLIES + 1);
                assertThat(posts).filteredOn(p -> "agent".equals(p.kind())).hasSize(REPLIES + 1);
            }
            assertThat(agent.recorder().messageIds()).hasSize(THREADS * (REPLIES + 1)).doesNotHaveDuplicates();
        } finally {
            people.shutdownNow();
            app.close().await();
            agent.close().await();
            vertx.close().await();
        }
    }
}
