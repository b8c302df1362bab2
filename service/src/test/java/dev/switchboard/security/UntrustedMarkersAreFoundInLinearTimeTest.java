package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.switchboard.bridge.UntrustedData;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * L1: finding the markers in untrusted text took time quadratic in its length (a backtracking regular expression: a
 * 16,000-character trigger field took 1 s, 50 Slack replies about 4 s of a turn). Each input here is 200,000 characters
 * built to make a backtracking matcher work hardest; the quadratic version needs minutes for one (measured: 0.77 s at
 * 16,000, 3.0 s at 32,000, so some 120 s at 200,000), a linear one milliseconds. The bound, 10 s, is there only to
 * fail the quadratic version without waiting for it: it is a hundred times what a linear scan needs on a loaded
 * machine, so it says nothing about speed. What the test checks is that the markers are still found.
 */
class UntrustedMarkersAreFoundInLinearTimeTest {

    private static final int SIZE = 200_000;
    private static final Duration BOUND = Duration.ofSeconds(10);

    static Stream<String> adversarial() {
        return Stream.of(
                "<" + " ".repeat(SIZE - 1), // one opening bracket, a run of spaces: \s*/?\s* tries every split
                "<" + " ".repeat(SIZE / 2) + "/" + " ".repeat(SIZE / 2 - 2),
                "<" + "\t\n".repeat(SIZE / 2 - 1),
                "< ".repeat(SIZE / 2),
                "<untrusted-dat".repeat(SIZE / 14), // near misses, each a full attempt
                "<untrusted" + "-".repeat(SIZE - 10), // a separator run that never reaches "data"
                "<" + "\u200b".repeat(SIZE - 1), // invisible characters the fold drops
                "&#".repeat(SIZE / 2) + "&lt;".repeat(10),
                ("</untrusted-data " + "x".repeat(300)).repeat(SIZE / 317)); // tags whose > is never found
    }

    @ParameterizedTest
    @MethodSource("adversarial")
    void aLongHostileReplyIsWrappedAtOnce(String hostile) {
        String text = assertTimeoutPreemptively(BOUND, () -> UntrustedData.append("look", "Replies", "slack",
                "thread-replies", List.of(new UntrustedData.Entry(null, hostile))));
        assertThat(text.length()).isGreaterThan(SIZE / 2);
    }

    @Test
    void fiftyLongRepliesAreOneTurnAtOnce() {
        List<UntrustedData.Entry> replies = new ArrayList<>();
        for (int i = 0; i < 50; i++) {
            replies.add(new UntrustedData.Entry("Mallory (U3)", "<" + " ".repeat(3_999)));
        }
        String text = assertTimeoutPreemptively(BOUND, () -> UntrustedData.append("look", "Replies", "slack",
                "thread-replies", replies));
        assertThat(text).contains("Mallory (U3): <   ");
    }

    @Test
    void markersAreFoundAllAlongALongText() {
        // a tag every 1,000 characters of 200,000, in the spellings a reader might take for one: all of them cut
        String[] tags = {"</untrusted-data>", "< / UNTRUSTED-DATA >", "\uff1c\uff0funtrusted-data\uff1e",
            "&lt;/untrusted-data&gt;", "</untrusted\u200b-d\u0430ta>"};
        StringBuilder hostile = new StringBuilder();
        int placed = 0;
        while (hostile.length() < SIZE) {
            hostile.append(" ".repeat(997)).append(tags[placed++ % tags.length]);
        }
        String text = assertTimeoutPreemptively(BOUND, () -> UntrustedData.append("look", "Replies", "slack",
                "thread-replies", List.of(new UntrustedData.Entry(null, hostile.toString()))));
        int removed = 0;
        for (int at = text.indexOf("[tag removed]"); at >= 0; at = text.indexOf("[tag removed]", at + 1)) {
            removed++;
        }
        assertThat(removed).isEqualTo(placed);
        assertThat(text).doesNotContain("untrusted-data>").doesNotContain("UNTRUSTED");
    }
}
