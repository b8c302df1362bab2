package dev.switchboard.gateway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.testing.InteropTest;
import dev.switchboard.testing.ProcessTest;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.RecordedRequest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * G10 + G1 + G8 with a real client: the stock {@code @a2a-js/sdk} 1.3.0 client (interop/client.mjs),
 * configured only with the gateway's card URL for an agent, does send, stream, get and cancel through
 * the gateway, in A2A 1.0 and in 0.3, against a testkit agent that serves both.
 */
@ServerTest
@ProcessTest
@InteropTest
class JsSdkThroughGatewayTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static Harness h;
    static TestAgent agent;
    static Path interop;
    static String cardUrl;

    @BeforeAll
    static void start() throws Exception {
        interop = findInterop();
        if (!Files.isDirectory(interop.resolve("node_modules/@a2a-js/sdk"))) {
            fail("interop/node_modules is missing (no @a2a-js/sdk in " + interop.resolve("node_modules")
                    + "): run ./run-tests (it runs npm ci --prefix interop) from the repository root");
        }
        try {
            Process node = new ProcessBuilder("node", "--version").redirectErrorStream(true).start();
            if (!node.waitFor(30, TimeUnit.SECONDS) || node.exitValue() != 0) {
                fail("`node --version` failed: Node 20 is needed to run interop/client.mjs");
            }
        } catch (IOException e) {
            fail("node is not on the PATH: Node 20 is needed to run interop/client.mjs (" + e.getMessage() + ")");
        }
        h = new Harness(dir);
        agent = h.agent(TestAgentOptions.echo("js-echo"));
        h.backend("js-echo", agent.url()).start();
        cardUrl = h.base() + "/a2a/js-echo/.well-known/agent-card.json";
    }

    @AfterAll
    static void stop() {
        if (h != null) {
            h.close();
        }
    }

    @BeforeEach
    void clear() {
        agent.recorder().clear();
    }

    static Path findInterop() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("interop/client.mjs"))) {
                return p.resolve("interop");
            }
        }
        throw new IllegalStateException("interop/client.mjs not found above " + Path.of("").toAbsolutePath());
    }

    // ---- running client.mjs ----

    /** One client.mjs process: its stdout lines as they come. */
    static final class Client {
        final Process process;
        final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        final List<String> all = new ArrayList<>();
        final StringBuilder stderr = new StringBuilder();
        final Thread out;
        final Thread err;

        Client(String... args) throws IOException {
            List<String> command = new ArrayList<>(List.of("node", interop.resolve("client.mjs").toString()));
            command.addAll(List.of(args));
            process = new ProcessBuilder(command).directory(interop.toFile()).start();
            out = new Thread(() -> read(process.inputReader(StandardCharsets.UTF_8), true), "client.mjs-stdout");
            err = new Thread(() -> read(process.errorReader(StandardCharsets.UTF_8), false), "client.mjs-stderr");
            out.setDaemon(true);
            err.setDaemon(true);
            out.start();
            err.start();
        }

        private void read(BufferedReader reader, boolean stdout) {
            try (reader) {
                String line;
                while ((line = reader.readLine()) != null) {
                    if (stdout) {
                        synchronized (all) {
                            all.add(line);
                        }
                        lines.add(line);
                    } else {
                        synchronized (stderr) {
                            stderr.append(line).append('\n');
                        }
                    }
                }
            } catch (IOException e) {
                // the process ended
            }
        }

        JsonNode nextLine(int seconds) throws InterruptedException {
            String line = lines.poll(seconds, TimeUnit.SECONDS);
            if (line == null) {
                throw new AssertionError("client.mjs printed nothing within " + seconds + " s; stderr: " + stderr);
            }
            return parse(line);
        }

        /** Waits for the exit; returns every stdout line as JSON. */
        List<JsonNode> finish(int seconds) throws InterruptedException {
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("client.mjs did not exit within " + seconds + " s; stdout: " + all + " stderr: " + stderr);
            }
            // the reader threads may still be draining the pipes
            out.join(5000);
            err.join(5000);
            assertThat(process.exitValue()).as("client.mjs exit; stdout " + all + " stderr " + stderr).isZero();
            List<JsonNode> printed = new ArrayList<>();
            synchronized (all) {
                all.forEach(l -> printed.add(parse(l)));
            }
            return printed;
        }
    }

    private static JsonNode parse(String line) {
        try {
            return JSON.readTree(line);
        } catch (IOException e) {
            throw new UncheckedIOException("client.mjs printed a line that is not JSON: " + line, e);
        }
    }

    private static List<JsonNode> run(String mode, String op, String... more) throws Exception {
        List<String> args = new ArrayList<>(List.of("--card", cardUrl, "--mode", mode, "--op", op));
        args.addAll(List.of(more));
        return new Client(args.toArray(String[]::new)).finish(60);
    }

    private static String artifactText(JsonNode task) {
        StringBuilder text = new StringBuilder();
        task.path("artifacts").forEach(a -> a.path("parts").forEach(p -> text.append(p.path("text").asText())));
        return text.toString();
    }

    private static List<RecordedRequest> rpcCalls() {
        List<RecordedRequest> calls = agent.recorder().rpcRequests();
        // every JSON-RPC call came through the gateway: it carries the caller id the gateway adds
        assertThat(calls).allSatisfy(r -> assertThat(r.header("X-Switchboard-Caller-ID")).isEqualTo("127.0.0.1"));
        return calls;
    }

    private static String method(String mode, String v10, String v03) {
        return mode.equals("1.0") ? v10 : v03;
    }

    // ---- the four operations, in both versions ----

    @ParameterizedTest(name = "A2A {0}")
    @ValueSource(strings = {"1.0", "0.3"})
    void sendThenGetThroughTheGateway(String mode) throws Exception {
        List<JsonNode> sent = run(mode, "send", "--text", "hello through the gateway in " + mode);

        assertThat(sent).hasSize(1);
        JsonNode task = sent.get(0).path("task");
        assertThat(task.path("status").path("state").asText()).isEqualTo("TASK_STATE_COMPLETED");
        assertThat(artifactText(task)).isEqualTo("hello through the gateway in " + mode);
        assertThat(rpcCalls()).extracting(RecordedRequest::rpcMethod).containsExactly(method(mode, "SendMessage", "message/send"));
        if (mode.equals("1.0")) {
            assertThat(agent.recorder().rpcRequests().get(0).header("A2A-Version")).isEqualTo("1.0");
        }

        List<JsonNode> got = run(mode, "get", "--task-id", task.path("id").asText());

        assertThat(got).hasSize(1);
        assertThat(got.get(0).path("task").path("id").asText()).isEqualTo(task.path("id").asText());
        assertThat(got.get(0).path("task").path("status").path("state").asText()).isEqualTo("TASK_STATE_COMPLETED");
        assertThat(rpcCalls()).extracting(RecordedRequest::rpcMethod)
                .containsExactly(method(mode, "SendMessage", "message/send"), method(mode, "GetTask", "tasks/get"));
    }

    @ParameterizedTest(name = "A2A {0}")
    @ValueSource(strings = {"1.0", "0.3"})
    void streamThroughTheGateway(String mode) throws Exception {
        List<JsonNode> events = run(mode, "stream", "--text", "/stream 3 30\nstreamed through the gateway");

        assertThat(events.size()).isGreaterThanOrEqualTo(5);
        assertThat(events.get(0).has("task")).isTrue();
        StringBuilder streamed = new StringBuilder();
        events.stream().filter(e -> e.has("artifactUpdate")).forEach(e ->
                e.path("artifactUpdate").path("artifact").path("parts").forEach(p -> streamed.append(p.path("text").asText())));
        assertThat(streamed).hasToString("streamed through the gateway");
        JsonNode last = events.get(events.size() - 1);
        assertThat(last.path("statusUpdate").path("status").path("state").asText()).isEqualTo("TASK_STATE_COMPLETED");
        assertThat(rpcCalls()).extracting(RecordedRequest::rpcMethod)
                .containsExactly(method(mode, "SendStreamingMessage", "message/stream"));
    }

    @ParameterizedTest(name = "A2A {0}")
    @ValueSource(strings = {"1.0", "0.3"})
    void cancelARunningTaskThroughTheGateway(String mode) throws Exception {
        // a task that works for 30 s, started by a stream that stays open until the task ends
        Client stream = new Client("--card", cardUrl, "--mode", mode, "--op", "stream", "--text", "/slow 30000");
        try {
            JsonNode first = stream.nextLine(30);
            String taskId = first.path("task").path("id").asText();
            assertThat(taskId).as("first stream event " + first).isNotEmpty();

            List<JsonNode> canceled = run(mode, "cancel", "--task-id", taskId);

            assertThat(canceled).hasSize(1);
            assertThat(canceled.get(0).path("task").path("id").asText()).isEqualTo(taskId);
            assertThat(canceled.get(0).path("task").path("status").path("state").asText()).isEqualTo("TASK_STATE_CANCELED");
            // the open stream sees the cancellation and ends
            List<JsonNode> streamed = stream.finish(20);
            JsonNode last = streamed.get(streamed.size() - 1);
            assertThat(last.toString()).contains("TASK_STATE_CANCELED");
        } finally {
            stream.process.destroyForcibly();
        }
        assertThat(rpcCalls()).extracting(RecordedRequest::rpcMethod)
                .containsExactly(method(mode, "SendStreamingMessage", "message/stream"), method(mode, "CancelTask", "tasks/cancel"));
    }

    /**
     * G13 with the stock client: its stream dropped (the process killed after the first event), it resubscribes with
     * {@code Last-Event-ID} sent through the SDK's service parameters; the gateway's {@code id:} lines do not
     * disturb its SSE parser, the missed events come first (not the Task a fresh subscription starts with), and the
     * stream runs to the task's end. A plain resubscribe of a running task works unchanged too.
     */
    @ParameterizedTest(name = "A2A {0}")
    @ValueSource(strings = {"1.0", "0.3"})
    void resubscribeThroughTheGatewayWithLastEventId(String mode) throws Exception {
        double resumesBefore = h.metrics().sum("switchboard_gateway_stream_resumes_total", "agent", "js-echo");
        Client stream = new Client("--card", cardUrl, "--mode", mode, "--op", "stream", "--text",
                "/stream 15 200\nresumed through the gateway");
        String taskId;
        try {
            JsonNode first = stream.nextLine(30);
            taskId = first.path("task").path("id").asText();
            assertThat(taskId).as("first stream event " + first).isNotEmpty();
        } finally {
            stream.process.destroyForcibly();
        }
        List<JsonNode> plain = run(mode, "resubscribe", "--task-id", taskId);
        assertThat(plain.get(0).has("task")).as("a fresh subscription starts with the Task: " + plain).isTrue();
        assertThat(plain.get(plain.size() - 1).toString()).contains("TASK_STATE_COMPLETED");

        List<JsonNode> resumed = run(mode, "resubscribe", "--task-id", taskId, "--last-event-id", taskId + ":1");
        assertThat(resumed.get(0).has("task")).as("the missed events come first: " + resumed).isFalse();
        assertThat(resumed.get(resumed.size() - 1).toString()).contains("TASK_STATE_COMPLETED");
        assertThat(h.metrics().sum("switchboard_gateway_stream_resumes_total", "agent", "js-echo"))
                .isEqualTo(resumesBefore + 1);
    }
}
