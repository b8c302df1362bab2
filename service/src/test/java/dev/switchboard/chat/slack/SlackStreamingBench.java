package dev.switchboard.chat.slack;

import static org.awaitility.Awaitility.await;

import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.slack.SlackCall;
import dev.switchboard.testkit.slack.SlackMessage;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The benchmark of issue 28 (bench/slack-streaming.sh; not part of the test run: surefire picks no *Bench class
 * unless named): 50 threads answering at once, each answer streaming 60 chunks over about a minute, against the
 * fake Slack, once per streaming mode. It counts the Web API calls per method, the most any method saw in one
 * sliding minute (against its published tier), and how long until every answer showed its whole text, finished.
 * It asserts nothing about speed; it fails only when an answer never shows whole.
 */
@ServerTest
class SlackStreamingBench {

    private static final int THREADS = Integer.getInteger("bench.threads", 50);
    private static final int CHUNKS = Integer.getInteger("bench.chunks", 60);
    private static final long CHUNK_MS = Long.getLong("bench.chunkMs", 1000);
    /** Published limits per minute (Slack's tiers; chat.postMessage: about one a second per channel). */
    private static final Map<String, Integer> LIMITS = Map.of("chat.startStream", 20, "chat.appendStream", 100,
            "chat.stopStream", 20, "chat.update", 50, "chat.postMessage", 60);

    @TempDir
    Path dir;

    @Test
    void fiftyThreadsAnsweringAtOnce() throws IOException {
        StringBuilder report = new StringBuilder("Slack streaming bench: " + THREADS + " threads at once, " + CHUNKS
                + " chunks every " + CHUNK_MS + " ms each, one channel, fake Slack\n");
        for (String mode : System.getProperty("bench.modes", "native,auto,edit").split(",")) {
            report.append(run(mode.strip()));
        }
        System.out.println(report);
        Path out = Path.of(System.getProperty("bench.report", "target/slack-streaming-bench.txt"));
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, report);
    }

    private String run(String streaming) {
        try (SlackRig rig = SlackRig.streaming(dir.resolve(streaming), "events", streaming, true)) {
            String words = IntStream.range(0, CHUNKS).mapToObj(i -> "w" + i).collect(Collectors.joining(" "));
            Instant start = Instant.now();
            List<String> threads = new ArrayList<>();
            for (int i = 0; i < THREADS; i++) {
                threads.add(rig.mention(i % 2 == 0 ? SlackRig.ADA : SlackRig.GRACE,
                        "/stream " + CHUNKS + " " + CHUNK_MS + "\n" + words, null).ts());
            }
            await().atMost(Duration.ofMinutes(15)).pollInterval(Duration.ofSeconds(1)).until(() -> threads.stream()
                    .allMatch(ts -> finished(rig.botReplies(ts), words)));
            Duration all = Duration.between(start, Instant.now());
            List<SlackCall> calls = rig.slack.calls();
            Map<String, Long> counts = new TreeMap<>(calls.stream().filter(c -> c.method().startsWith("chat."))
                    .collect(Collectors.groupingBy(SlackCall::method, Collectors.counting())));
            StringBuilder r = new StringBuilder("\nstreaming: " + streaming + "\n");
            r.append(String.format("  every answer whole and final after %.1f s%n", all.toMillis() / 1000.0));
            r.append(String.format("  %-22s %7s %16s %10s%n", "method", "calls", "max per minute", "limit"));
            for (Map.Entry<String, Long> e : counts.entrySet()) {
                r.append(String.format("  %-22s %7d %16d %10s%n", e.getKey(), e.getValue(),
                        maxPerMinute(calls, e.getKey()), LIMITS.getOrDefault(e.getKey(), 0) == 0 ? "-"
                                : LIMITS.get(e.getKey())));
            }
            r.append(String.format("  %-22s %7d%n", "all chat.* calls", counts.values().stream().mapToLong(Long::longValue).sum()));
            return r.toString();
        }
    }

    /** One bot message showing the whole text, no longer streaming, with its feedback buttons. */
    private static boolean finished(List<SlackMessage> replies, String words) {
        return replies.size() == 1 && words.equals(replies.get(0).text()) && !replies.get(0).streaming()
                && replies.get(0).blocks() != null && replies.get(0).blocks().contains("feedback_buttons");
    }

    /** The most calls of {@code method} within any 60 s. */
    private static long maxPerMinute(List<SlackCall> calls, String method) {
        List<Instant> at = calls.stream().filter(c -> c.method().equals(method)).map(SlackCall::at).sorted().toList();
        long max = 0;
        int from = 0;
        for (int to = 0; to < at.size(); to++) {
            while (Duration.between(at.get(from), at.get(to)).compareTo(Duration.ofSeconds(60)) >= 0) {
                from++;
            }
            max = Math.max(max, to - from + 1);
        }
        return max;
    }
}
