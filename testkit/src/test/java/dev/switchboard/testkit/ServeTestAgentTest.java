package dev.switchboard.testkit;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.protocol.Json;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link ServeTestAgent}: a testkit agent with a chosen default behaviour, in a process of its own. */
@Tag("process")
class ServeTestAgentTest {

    @TempDir
    Path dir;

    @Test
    void servesTheAgentWithTheBehaviourGivenAndPrintsItsUrl() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        // stdout to a file: the test classpath's logging writes there too, and a pipe nobody drains would stall it
        Path stdout = dir.resolve("stdout.txt");
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), ServeTestAgent.class.getName(),
                "--port", "0", "--behavior", "/newcontext", "--name", "forgetful", "--versions", "1.0")
                .redirectOutput(stdout.toFile()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        try {
            String url = Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> Files.readAllLines(stdout).stream()
                    .filter(l -> l.startsWith("http://")).findFirst().orElse(null), u -> u != null);
            assertThat(url).matches("http://127\\.0\\.0\\.1:\\d+/");
            HttpClient http = HttpClient.newHttpClient();
            JsonNode card = Json.parse(http.send(HttpRequest.newBuilder(URI.create(url + ".well-known/agent-card.json"))
                    .header("A2A-Version", "1.0").build(), HttpResponse.BodyHandlers.ofString()).body());
            assertThat(card.path("name").asText()).isEqualTo("forgetful");
            assertThat(card.path("supportedInterfaces")).hasSize(1);
            // /newcontext: a turn sent into a context comes back in another
            String body = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"SendMessage\",\"params\":{\"message\":{\"messageId\":"
                    + "\"m1\",\"contextId\":\"ctx-given\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":\"hi\"}]}}}";
            JsonNode reply = Json.parse(http.send(HttpRequest.newBuilder(URI.create(url)).header("A2A-Version", "1.0")
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                    HttpResponse.BodyHandlers.ofString()).body());
            assertThat(reply.path("result").path("task").path("contextId").asText()).isNotEmpty().isNotEqualTo("ctx-given");
        } finally {
            p.destroy();
            if (!p.waitFor(10, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        }
    }

    @Test
    void aBadOptionExitsTwoWithTheUsage() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"), ServeTestAgent.class.getName(),
                "--behavior", "/slow soon").redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).isEqualTo(2);
        assertThat(err).contains("usage: ServeTestAgent");
    }
}
