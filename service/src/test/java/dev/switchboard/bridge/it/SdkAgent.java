package dev.switchboard.bridge.it;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import dev.switchboard.bridge.support.ChatApi;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * The real {@code @a2a-js/sdk} 1.3.0 echo agent ({@code interop/sdk-agent.mjs}) in a Node process,
 * started with {@code --record} so a test can read what it received and executed.
 */
public final class SdkAgent implements AutoCloseable {

    private final Process process;
    public final String rpcUrl;
    public final String baseUrl;

    private SdkAgent(Process process, String rpcUrl, String baseUrl) {
        this.process = process;
        this.rpcUrl = rpcUrl;
        this.baseUrl = baseUrl;
    }

    /** @param versions {@code "1.0,0.3"} (the script's default) or {@code "0.3"} */
    public static SdkAgent start(String versions, Path logDir) throws Exception {
        Path interop = Path.of(System.getProperty("user.dir")).resolve("../interop").normalize();
        Path script = interop.resolve("sdk-agent.mjs");
        if (!Files.isRegularFile(script)) {
            fail("the SDK agent is missing: " + script);
        }
        if (!Files.isDirectory(interop.resolve("node_modules/@a2a-js/sdk"))) {
            fail("interop/node_modules is missing, so the real @a2a-js/sdk agent cannot run: use ./run-tests, which runs npm ci --prefix interop first");
        }
        Path log = logDir.resolve("sdk-agent-" + versions.replace(',', '_') + ".log");
        ProcessBuilder pb = new ProcessBuilder("node", script.toString(), "--port", "0", "--record", "--versions", versions)
                .directory(interop.toFile())
                .redirectError(log.toFile());
        Process p;
        try {
            p = pb.start();
        } catch (IOException e) {
            fail("cannot run node (Node 20 is needed for the SDK interop tests): " + e.getMessage());
            throw e;
        }
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String line = CompletableFuture.supplyAsync(() -> {
            try {
                return out.readLine();
            } catch (IOException e) {
                return null;
            }
        }).get(20, TimeUnit.SECONDS);
        if (line == null) {
            p.destroyForcibly();
            fail("sdk-agent.mjs exited before it listened: " + Files.readString(log));
        }
        JsonNode started = ChatApi.read(line);
        String rpcUrl = started.path("rpcUrl").asText();
        return new SdkAgent(p, rpcUrl, rpcUrl.substring(0, rpcUrl.indexOf("/a2a/")));
    }

    /** {@code {"requests":[{httpMethod, path, headers, body}], "executions":[{messageId, taskId, contextId}]}} */
    public JsonNode received() throws Exception {
        HttpResponse<String> r = HttpClient.newHttpClient().send(
                HttpRequest.newBuilder(URI.create(baseUrl + "/_received")).build(), HttpResponse.BodyHandlers.ofString());
        return ChatApi.read(r.body());
    }

    /** The JSON-RPC requests it received, in order. */
    List<JsonNode> rpcRequests() throws Exception {
        List<JsonNode> out = new ArrayList<>();
        received().path("requests").forEach(r -> {
            if ("POST".equals(r.path("httpMethod").asText())) {
                out.add(r);
            }
        });
        return out;
    }

    @Override
    public void close() throws Exception {
        process.destroy();
        if (!process.waitFor(5, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
