package dev.switchboard.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.gateway.support.SseCall;
import dev.switchboard.registry.AgentLimits;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * G13: relayed task streams carry {@code id: <taskId>:<n>}; a caller that drops and comes back with
 * {@code Last-Event-ID} misses nothing and sees nothing twice; events no longer held are a gap, named.
 * Two gateways: one holds a dropped stream for a resume (holdAfterDrop), one closes it at once (G8) and so resumes
 * by subscribing to the agent again, with a small buffer to make gaps.
 */
@ServerTest
class G13ResumableStreamsTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;
    @TempDir
    static Path dir0;
    @TempDir
    static Path dir1;

    static Harness held;
    static Harness closed;
    static Harness brief;

    @BeforeAll
    static void start() {
        held = new Harness(dir);
        TestAgent a = held.agent(TestAgentOptions.echo("streamer"));
        held.gateway(GatewaySettings.DEFAULTS.withStreamBuffer(
                new StreamBufferSettings(1000, 1024 * 1024, Duration.ofMinutes(10), 100, Duration.ofSeconds(60))));
        held.backend("streamer", a.url(), AgentLimits.DEFAULTS).start();

        closed = new Harness(dir0);
        TestAgent b = closed.agent(TestAgentOptions.echo("streamer"));
        closed.gateway(GatewaySettings.DEFAULTS.withStreamBuffer(
                new StreamBufferSettings(8, 1024 * 1024, Duration.ofMinutes(10), 100, Duration.ZERO)));
        closed.backend("streamer", b.url(), AgentLimits.DEFAULTS).start();

        brief = new Harness(dir1);
        TestAgent c = brief.agent(TestAgentOptions.echo("streamer"));
        brief.gateway(GatewaySettings.DEFAULTS.withStreamBuffer(
                new StreamBufferSettings(1000, 1024 * 1024, Duration.ofMinutes(10), 100, Duration.ofSeconds(1))));
        brief.backend("streamer", c.url(), AgentLimits.DEFAULTS).start();
    }

    @AfterAll
    static void stop() {
        held.close();
        closed.close();
        brief.close();
    }

    @Test
    void everyEventOfARelayedTaskStreamHasAnIdOfItsTaskInOrder() {
        SseCall call = held.http().stream("/a2a/streamer", Rpc.stream(1, "/stream 3 10\nthree chunks"));
        call.awaitEnd();
        List<String> ids = ids(call.dataFrames());
        assertThat(ids).hasSize(call.dataFrames().size());
        String task = taskOf(ids.get(0));
        assertThat(ids).containsExactlyElementsOf(numbered(task, 1, ids.size()));
    }

    @Test
    void aCallerThatDropsMidStreamAndResumesWithLastEventIdSeesEveryEventExactlyOnce() {
        // an uninterrupted stream of the same script tells how many events there are
        SseCall whole = held.http().stream("/a2a/streamer", Rpc.stream(1, "/stream 12 100\nalpha beta gamma"));
        whole.awaitEnd();
        int expected = whole.dataFrames().size();

        SseCall first = held.http().stream("/a2a/streamer", Rpc.stream(2, "/stream 12 100\nalpha beta gamma"));
        await().until(() -> first.dataFrames().size() >= 3);
        first.disconnect();
        List<String> seen = ids(first.dataFrames());
        String last = seen.get(seen.size() - 1);
        String task = taskOf(last);

        SseCall resumed = held.http().stream("/a2a/streamer", resubscribe(3, task), "Last-Event-ID", last);
        resumed.awaitEnd();
        assertThat(resumed.status()).isEqualTo(200);
        List<String> all = new ArrayList<>(seen);
        all.addAll(ids(resumed.dataFrames()));
        assertThat(all).containsExactlyElementsOf(numbered(task, 1, expected));
        assertThat(lastState(resumed)).isEqualTo("completed");
        assertThat(held.metrics().sum("switchboard_gateway_stream_resumes_total", "agent", "streamer", "from", "buffer"))
                .isGreaterThanOrEqualTo(1);
        // the held stream ended with the agent's: nothing is left in flight
        await().until(() -> held.inFlight("streamer") == 0 && held.openStreams("streamer") == 0);
    }

    @Test
    void aHeldStreamNobodyResumesIsClosedAfterHoldAfterDropAndGivesItsSlotBack() {
        // 600 chunks 100 ms apart: a minute, far beyond the 1 s hold
        SseCall call = brief.http().stream("/a2a/streamer", Rpc.stream(1, "/stream 600 100\nlong"));
        await().until(() -> call.dataFrames().size() >= 2);
        call.disconnect();
        await().until(() -> brief.inFlight("streamer") == 0 && brief.openStreams("streamer") == 0);
        assertThat(brief.metrics().sum("switchboard_gateway_requests_total", "agent", "streamer",
                "outcome", "caller_disconnected")).isEqualTo(1);
    }

    @Test
    void aResumeOfAnEndedStreamFromTheGetStreamReplaysWhatFollowsAndEnds() {
        SseCall call = held.http().stream("/a2a/streamer", Rpc.stream(1, "/stream 4 10\nfour"));
        call.awaitEnd();
        List<String> ids = ids(call.dataFrames());
        String task = taskOf(ids.get(0));

        SseCall again = held.http().streamGet("/a2a/streamer/stream", "Last-Event-ID", ids.get(0));
        again.awaitEnd();
        assertThat(ids(again.dataFrames())).containsExactlyElementsOf(ids.subList(1, ids.size()));
        assertThat(lastState(again)).isEqualTo("completed");
        assertThat(task).isNotBlank();
    }

    @Test
    void aResumeAfterTheStreamToTheAgentClosedSubscribesToTheAgentAgainAndContinuesTheNumbering() {
        SseCall first = closed.http().stream("/a2a/streamer", Rpc.stream(1, "/stream 30 100\na long one"));
        await().until(() -> first.dataFrames().size() >= 2);
        first.disconnect();
        List<String> seen = ids(first.dataFrames());
        String last = seen.get(seen.size() - 1);
        String task = taskOf(last);
        // the gateway closed its stream to the agent (G8); the task goes on at the agent
        await().until(() -> closed.openStreams("streamer") == 0);

        SseCall resumed = closed.http().stream("/a2a/streamer", resubscribe(2, task), "Last-Event-ID", last);
        resumed.awaitEnd();
        List<String> all = new ArrayList<>(seen);
        all.addAll(ids(resumed.dataFrames()));
        // the missed events the buffer held, then the agent's subscription (its Task first), numbered on
        assertThat(all).containsExactlyElementsOf(numbered(task, 1, all.size()));
        assertThat(all.size()).isGreaterThan(seen.size());
        assertThat(lastState(resumed)).isEqualTo("completed");
        assertThat(closed.metrics().sum("switchboard_gateway_stream_resumes_total", "agent", "streamer", "from", "agent"))
                .isGreaterThanOrEqualTo(1);
    }

    @Test
    void aResumeFromAnEventNoLongerBufferedIsAGapErrorNamingIt() throws Exception {
        // 20 chunks: more events than the 8 this gateway keeps per task
        SseCall call = closed.http().stream("/a2a/streamer", Rpc.stream(1, "/stream 20 5\nmany"));
        call.awaitEnd();
        List<String> ids = ids(call.dataFrames());
        String task = taskOf(ids.get(0));
        double gapsBefore = closed.metrics().sum("switchboard_gateway_stream_gaps_total", "agent", "streamer");

        Reply gap = closed.http().post("/a2a/streamer", resubscribe(7, task), "Last-Event-ID", ids.get(0));
        JsonNode error = JSON.readTree(gap.body().toString()).path("error");
        assertThat(error.path("code").asInt()).isEqualTo(GatewayErrorCodes.STREAM_GAP);
        assertThat(error.path("message").asText())
                .startsWith("stream gap: the events of task " + task + " after " + ids.get(0) + " are no longer buffered")
                .contains("holds " + task + ":" + (ids.size() - 7) + " to " + task + ":" + ids.size());
        assertThat(JSON.readTree(gap.body().toString()).path("id").asInt()).isEqualTo(7);

        Reply unknown = closed.http().post("/a2a/streamer", resubscribe(8, "no-such-task"), "Last-Event-ID",
                "no-such-task:3");
        assertThat(JSON.readTree(unknown.body().toString()).path("error").path("message").asText())
                .contains("this replica holds no stream of the task");
        assertThat(closed.metrics().sum("switchboard_gateway_stream_gaps_total", "agent", "streamer"))
                .isEqualTo(gapsBefore + 2);
    }

    @Test
    void aLastEventIdThisGatewayDidNotSendIsRefusedNamingIt() throws Exception {
        Reply bad = closed.http().post("/a2a/streamer", resubscribe(9, "t-1"), "Last-Event-ID", "17");
        JsonNode error = JSON.readTree(bad.body().toString()).path("error");
        assertThat(error.path("code").asInt()).isEqualTo(-32602);
        assertThat(error.path("message").asText()).isEqualTo(
                "invalid Last-Event-ID '17': expected <taskId>:<n>, an id: this gateway sent on the task's stream");

        Reply other = closed.http().post("/a2a/streamer", resubscribe(10, "t-1"), "Last-Event-ID", "t-2:4");
        assertThat(JSON.readTree(other.body().toString()).path("error").path("message").asText())
                .isEqualTo("Last-Event-ID names task 't-2' but params.id is 't-1'");
    }

    private static String resubscribe(int id, String task) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tasks/resubscribe\",\"params\":{\"id\":\""
                + task + "\"}}";
    }

    private static List<String> ids(List<String> frames) {
        List<String> ids = new ArrayList<>();
        for (String frame : frames) {
            frame.lines().filter(l -> l.startsWith("id: ")).reduce((a, b) -> b).ifPresent(l -> ids.add(l.substring(4)));
        }
        return ids;
    }

    private static String taskOf(String eventId) {
        return eventId.substring(0, eventId.lastIndexOf(':'));
    }

    private static List<String> numbered(String task, int from, int count) {
        List<String> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(task + ":" + (from + i));
        }
        return out;
    }

    private static String lastState(SseCall call) {
        List<JsonNode> events = call.events();
        JsonNode result = events.get(events.size() - 1).path("result");
        return result.path("status").path("state").asText();
    }
}
