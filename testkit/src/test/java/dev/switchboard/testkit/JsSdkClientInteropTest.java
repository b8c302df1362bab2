package dev.switchboard.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The stock @a2a-js/sdk 1.3.0 client (interop/client.mjs) against a testkit agent, in both of its
 * modes. client.mjs prints the SDK's 1.0 ProtoJSON shapes whatever the wire version was.
 */
@Tag("process")
@Tag("interop")
class JsSdkClientInteropTest extends AgentTestSupport {

    private static final Path INTEROP = locateInterop();

    private static Path locateInterop() {
        Path moduleDir = Path.of(System.getProperty("basedir", System.getProperty("user.dir")));
        return moduleDir.resolve("../interop").normalize();
    }

    @BeforeAll
    void interopIsInstalled() {
        assertThat(INTEROP.resolve("client.mjs"))
                .withFailMessage("missing %s: the interop client is part of the repository", INTEROP.resolve("client.mjs"))
                .exists();
        assertThat(INTEROP.resolve("node_modules/@a2a-js/sdk"))
                .withFailMessage("the JS SDK is not installed in %s: run `npm ci --prefix interop` from the repository root", INTEROP)
                .exists();
    }

    @BeforeEach
    void clearRecorder() {
        agent.recorder().clear();
    }

    /** Runs client.mjs and returns its stdout lines as JSON. */
    private List<JsonNode> client(String mode, String op, String text) {
        List<String> command = List.of("node", INTEROP.resolve("client.mjs").toString(),
                "--card", agent.cardUrl(), "--mode", mode, "--op", op, "--text", text);
        try {
            Process process = new ProcessBuilder(command).directory(INTEROP.toFile()).start();
            process.getOutputStream().close();
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("client.mjs did not finish within 60 s: " + command);
            }
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(process.exitValue()).withFailMessage("client.mjs exited %d%nstdout: %s%nstderr: %s",
                    process.exitValue(), out, err).isZero();
            List<JsonNode> lines = new ArrayList<>();
            for (String line : out.split("\n")) {
                if (!line.isBlank()) {
                    lines.add(WireClient.parse(line));
                }
            }
            return lines;
        } catch (IOException e) {
            throw new AssertionError("could not run node (is Node 20+ on the PATH?): " + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    private List<RecordedRequest> calls() {
        return agent.recorder().rpcRequests();
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.0", "0.3"})
    void sendReturnsTheCompletedTaskWithTheEchoedText(String mode) {
        List<JsonNode> lines = client(mode, "send", "hello from js " + mode);

        JsonNode task = lines.get(0).get("task");
        assertThat(task.path("status").path("state").asText()).isEqualTo("TASK_STATE_COMPLETED");
        assertThat(WireClient.artifactText(task)).isEqualTo("hello from js " + mode);
        assertThat(calls()).singleElement().satisfies(call -> assertThat(call.text()).isEqualTo("hello from js " + mode));
    }

    @ParameterizedTest
    @ValueSource(strings = {"1.0", "0.3"})
    void streamDeliversTheTaskThenTheArtifactAndEndsCompleted(String mode) {
        List<JsonNode> lines = client(mode, "stream", "/stream 3 20\nstreamed from js");

        assertThat(lines.get(0).has("task")).isTrue();
        StringBuilder text = new StringBuilder();
        lines.stream().filter(l -> l.has("artifactUpdate"))
                .forEach(l -> text.append(WireClient.partsText(l.get("artifactUpdate").path("artifact").path("parts"))));
        assertThat(text).hasToString("streamed from js");
        JsonNode last = lines.get(lines.size() - 1);
        assertThat(last.path("statusUpdate").path("status").path("state").asText()).isEqualTo("TASK_STATE_COMPLETED");
    }

    @Test
    void oneModeSendsTheVersionHeaderAndPascalCaseMethods() {
        client("1.0", "send", "one");
        client("1.0", "stream", "two");

        assertThat(calls()).extracting(RecordedRequest::rpcMethod).containsExactly("SendMessage", "SendStreamingMessage");
        assertThat(calls()).allSatisfy(call -> assertThat(call.header("A2A-Version")).isEqualTo("1.0"));
    }

    @Test
    void zeroThreeModeSendsTheSlashMethodsWithoutAOneHeader() {
        client("0.3", "send", "one");
        client("0.3", "stream", "two");

        assertThat(calls()).extracting(RecordedRequest::rpcMethod).containsExactly("message/send", "message/stream");
        assertThat(calls()).allSatisfy(call -> assertThat(call.header("A2A-Version")).isNotEqualTo("1.0"));
        assertThat(calls()).allSatisfy(call -> assertThat(call.body()).contains("\"kind\":\"message\""));
    }

    @Test
    void cardIsFetchedWithTheOneHeader() {
        client("0.3", "send", "card");

        assertThat(agent.recorder().requests()).filteredOn(r -> r.path().equals("/.well-known/agent-card.json"))
                .isNotEmpty()
                .allSatisfy(r -> assertThat(r.header("A2A-Version")).isEqualTo("1.0"));
    }
}
