package dev.switchboard.testkit;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.http.HttpClient;
import java.net.http.HttpHeaders;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/**
 * A response read line by line as it arrives: each {@code data:} line of an SSE stream becomes an
 * event, and a plain JSON body (an error before any event) is kept whole.
 */
final class SseCapture {

    /** Readers block on their stream; each gets its own daemon thread so parallel streams never wait on each other. */
    private static final ExecutorService READERS = Executors.newCachedThreadPool(runnable -> {
        Thread thread = new Thread(runnable, "sse-capture");
        thread.setDaemon(true);
        return thread;
    });

    private final List<JsonNode> events = new CopyOnWriteArrayList<>();
    private final List<String> rawLines = new CopyOnWriteArrayList<>();
    private final CompletableFuture<Void> ended = new CompletableFuture<>();
    private volatile HttpResponse<InputStream> response;

    static SseCapture open(HttpClient http, HttpRequest request) {
        SseCapture capture = new SseCapture();
        http.sendAsync(request, HttpResponse.BodyHandlers.ofInputStream()).whenComplete((response, failure) -> {
            if (failure != null) {
                capture.ended.completeExceptionally(failure);
                return;
            }
            capture.response = response;
            READERS.execute(() -> capture.read(response));
        });
        return capture;
    }

    /** Reads line by line (not with BodyHandlers.ofLines, which loses the lines before an abrupt close). */
    private void read(HttpResponse<InputStream> response) {
        try (BufferedReader lines = new BufferedReader(new InputStreamReader(response.body(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = lines.readLine()) != null) {
                rawLines.add(line);
                if (line.startsWith("data:")) {
                    events.add(WireClient.parse(line.substring(5).strip()));
                } else if (line.startsWith("{")) {
                    events.add(WireClient.parse(line));
                }
            }
            ended.complete(null);
        } catch (IOException | RuntimeException e) {
            ended.completeExceptionally(e);
        }
    }

    List<JsonNode> events() {
        return new ArrayList<>(events);
    }

    List<String> rawLines() {
        return new ArrayList<>(rawLines);
    }

    HttpHeaders headers() {
        Awaitility.await().until(() -> response != null);
        return response.headers();
    }

    int status() {
        headers();
        return response.statusCode();
    }

    boolean hasEnded() {
        return ended.isDone();
    }

    /** True when the connection ended by failing (e.g. reset) rather than by a clean close. */
    boolean endedAbruptly() {
        return ended.isCompletedExceptionally();
    }

    void awaitEnd() {
        try {
            ended.handle((v, e) -> null).get(AwaitDefaults.WAIT.toSeconds(), TimeUnit.SECONDS);
        } catch (Exception e) {
            throw new AssertionError("stream did not end within " + AwaitDefaults.WAIT + "; events so far: " + events, e);
        }
    }

    void awaitEvents(int count) {
        Awaitility.await().until(() -> events.size() >= count);
    }
}
