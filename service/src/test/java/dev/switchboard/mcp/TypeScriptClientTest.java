package dev.switchboard.mcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.testing.InteropTest;
import dev.switchboard.testing.ProcessTest;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 25 with the stock TypeScript MCP client ({@code @modelcontextprotocol/sdk}, interop/mcp-client.mjs, Node
 * 20): initialize, list the tools, send to A2A 1.0 and 0.3 testkit agents, a streamed answer as progress, a question
 * answered with send_message + taskId, a cancel (the SDK's AbortSignal, sent as notifications/cancelled) reaching the
 * agent as CancelTask, errors naming the problem, and a registration noticed as tools/list_changed — through API keys,
 * as a deployed client would call.
 */
@ServerTest
@ProcessTest
@InteropTest
class TypeScriptClientTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    static Path dir;

    static Harness h;
    static TestAgent v10;
    static TestAgent v03;
    static Path interop;

    @BeforeAll
    static void start() {
        interop = findInterop();
        if (!Files.isDirectory(interop.resolve("node_modules/@modelcontextprotocol/sdk"))) {
            fail("interop/node_modules has no @modelcontextprotocol/sdk: run npm ci --prefix interop");
        }
        h = new Harness(dir);
        v10 = h.agent(TestAgentOptions.echo("ts-one").withVersions(ProtocolVersion.V1_0));
        v03 = h.agent(TestAgentOptions.echo("ts-old").withVersions(ProtocolVersion.V0_3));
        h.backend("ts-one", v10.url()).backend("ts-old", v03.url()).apiKey("interop", "interop-key-0123456789")
                .adminToken("admin-token-0123456789").start();
    }

    @AfterAll
    static void stop() {
        if (h != null) {
            h.close();
        }
    }

    static Path findInterop() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("interop/mcp-client.mjs"))) {
                return p.resolve("interop");
            }
        }
        throw new IllegalStateException("interop/mcp-client.mjs not found above " + Path.of("").toAbsolutePath());
    }

    @Test
    void theTypeScriptClientUsesEveryAgentThroughMcp() throws Exception {
        Process node = new ProcessBuilder("node", interop.resolve("mcp-client.mjs").toString(), h.base(), "ts-one",
                "ts-old", "interop-key-0123456789").directory(interop.toFile()).start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        StringBuilder stderr = new StringBuilder();
        Thread reader = new Thread(() -> {
            try (BufferedReader r = node.inputReader(StandardCharsets.UTF_8)) {
                r.lines().forEach(lines::add);
            } catch (IOException ignored) {
                // the process ended
            }
        });
        reader.setDaemon(true);
        reader.start();
        Thread errors = new Thread(() -> {
            try (BufferedReader r = node.errorReader(StandardCharsets.UTF_8)) {
                r.lines().forEach(l -> stderr.append(l).append('\n'));
            } catch (IOException ignored) {
                // the process ended
            }
        });
        errors.setDaemon(true);
        errors.start();
        try {
            JsonNode init = step(lines, "initialized", stderr);
            assertThat(init.path("server").asText()).isEqualTo("switchboard");

            assertThat(names(step(lines, "tools", stderr).path("names")))
                    .contains("list_agents", "send_message", "get_task", "cancel_task");

            JsonNode one = step(lines, "send", stderr);
            assertThat(one.path("text").asText()).contains("hello ts-one");
            assertThat(one.path("state").asText()).isEqualTo("completed");
            JsonNode old = step(lines, "send", stderr);
            assertThat(old.path("text").asText()).contains("hello ts-old");
            assertThat(v03.recorder().rpcMethods()).contains("message/stream");

            JsonNode progress = step(lines, "progress", stderr);
            assertThat(progress.path("messages").size()).isGreaterThanOrEqualTo(2);
            assertThat(progress.path("state").asText()).isEqualTo("completed");

            JsonNode question = step(lines, "question", stderr);
            assertThat(question.path("asked").asText()).contains("Which colour?");
            assertThat(question.path("askedState").asText()).isEqualTo("input-required");
            assertThat(question.path("answeredState").asText()).isEqualTo("completed");
            assertThat(question.path("sameTask").asBoolean()).isTrue();

            JsonNode cancel = step(lines, "cancel", stderr);
            assertThat(cancel.path("aborted").asBoolean()).isTrue();
            await().untilAsserted(() -> assertThat(v10.recorder().rpcMethods()).contains("CancelTask"));

            JsonNode errs = step(lines, "errors", stderr);
            assertThat(errs.path("unknownAgent").asText()).contains("agent not found: nobody-here");
            assertThat(errs.path("unknownAgentIsError").asBoolean()).isTrue();
            assertThat(errs.path("unknownTool").asText()).contains("unknown tool: no_such_tool");

            step(lines, "ready-for-change", stderr);
            TestAgent late = h.agent(TestAgentOptions.echo("ts-late"));
            assertThat(h.http().post("/agents/register", "{\"agent_id\":\"ts-late\",\"name\":\"Late\",\"url\":\""
                    + late.url() + "\"}", "Content-Type", "application/json",
                    "Authorization", "Bearer admin-token-0123456789").status()).isBetween(200, 299);
            try (Writer w = node.outputWriter(StandardCharsets.UTF_8)) {
                w.write("register\n");
            }
            assertThat(step(lines, "listChanged", stderr).path("count").asInt()).isGreaterThanOrEqualTo(1);
            assertThat(node.waitFor(30, TimeUnit.SECONDS)).isTrue();
        } finally {
            node.destroyForcibly();
        }
    }

    /** {@code @modelcontextprotocol/inspector-cli} (its CLI mode, over HTTP) lists the door's tools. */
    @Test
    void theInspectorCliListsTheTools() throws Exception {
        Path cli = interop.resolve("node_modules/@modelcontextprotocol/inspector-cli/build/index.js");
        assertThat(cli).as("npm ci --prefix interop installs @modelcontextprotocol/inspector-cli").exists();
        Process node = new ProcessBuilder("node", cli.toString(), h.base() + "/mcp", "--transport", "http",
                "--method", "tools/list", "--header", "Authorization: Bearer interop-key-0123456789")
                // its build/ folder as the working directory: 1.0.3 tests for its own package.json relative to the
                // working directory but imports it relative to itself, and fails to start from anywhere else
                .directory(cli.getParent().toFile()).redirectErrorStream(true).start();
        String out = new String(node.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(node.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(node.exitValue()).as(out).isZero();
        JsonNode listed = JSON.readTree(out.substring(out.indexOf('{')));
        assertThat(names(listed.path("tools").findValues("name").stream().collect(
                JSON::createArrayNode, com.fasterxml.jackson.databind.node.ArrayNode::add,
                com.fasterxml.jackson.databind.node.ArrayNode::addAll)))
                .contains("list_agents", "send_message", "get_task", "cancel_task");
    }

    private static List<String> names(JsonNode array) {
        return StreamSupport.stream(array.spliterator(), false).map(JsonNode::asText).toList();
    }

    private static JsonNode step(BlockingQueue<String> lines, String name, StringBuilder stderr) throws Exception {
        List<String> seen = new ArrayList<>();
        while (true) {
            String line = lines.poll(60, TimeUnit.SECONDS);
            if (line == null) {
                fail("mcp-client.mjs printed no step '" + name + "' (saw " + seen + "); stderr: " + stderr);
            }
            seen.add(line);
            JsonNode n;
            try {
                n = JSON.readTree(line);
            } catch (IOException e) {
                continue;
            }
            if (name.equals(n.path("step").asText())) {
                return n;
            }
            fail("expected step '" + name + "', got " + line + "; stderr: " + stderr);
        }
    }
}
