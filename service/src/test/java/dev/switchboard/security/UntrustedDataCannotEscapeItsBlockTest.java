package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.bridge.UntrustedData;
import java.text.Normalizer;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * M6: quoted text (a Slack reply that did not mention the bot, an alert's fields) reaches the agent inside an
 * untrusted-data block. Whatever it holds, from the escape corpus, it cannot end that block, open another, or forge
 * the block's boundary: the block has exactly one opening and one closing boundary, Switchboard's; a reader that
 * splits the turn on that boundary finds all of the quoted text inside, as data, and nothing of it outside.
 */
class UntrustedDataCannotEscapeItsBlockTest {

    private static final String INTRO = "Replies in this thread since the last turn";
    /** A block's opening line: its boundary, a random id, and where its data came from. */
    private static final Pattern OPEN_LINE = Pattern.compile(
            "(?m)^<(untrusted-data-[0-9a-f]{32}) source=\"slack\" name=\"thread-replies\">$");
    /** What a reader could take for a tag of a block, once look-alikes are folded (the oracle's own fold, below). */
    private static final Pattern TAG_LIKE = Pattern.compile("<[ \\t\\n/\\\\]{0,8}untrusted[ _.-]{0,3}data");

    static Stream<String> attempts() {
        return EscapeCorpus.attempts().stream();
    }

    @ParameterizedTest
    @MethodSource("attempts")
    void quotedTextStaysInsideItsBlock(String attempt) {
        String earlier = boundaryOf(wrap("an earlier reply"));
        String hostile = attempt.replace(EscapeCorpus.BOUNDARY, earlier.substring("untrusted-data-".length()));
        String text = wrap(hostile);

        String boundary = boundaryOf(text);
        assertThat(boundary).as("a boundary is not reused").isNotEqualTo(earlier);
        String open = "<" + boundary + " ";
        String close = "</" + boundary + ">";
        assertThat(count(text, open)).as("one opening boundary in %s", text).isEqualTo(1);
        assertThat(count(text, close)).as("one closing boundary in %s", text).isEqualTo(1);
        assertThat(text).as("the block ends the turn").endsWith("\n" + close);

        // split on the boundary, as a reader would: Switchboard's words, the block's data, nothing after
        int openAt = text.indexOf(open);
        String before = text.substring(0, openAt);
        String data = text.substring(text.indexOf('\n', openAt) + 1, text.length() - close.length());
        assertThat(before).as("before the block: the person's text and Switchboard's note")
                .startsWith("what did Grace say?\n\n" + INTRO + " (").doesNotContainIgnoringCase("obey");
        assertThat(before.split("\n", -1)).as("two paragraphs: the text, the note").hasSize(4);
        assertThat(data).as("the quoted replies, in order, all inside")
                .startsWith("Grace (U2): before\nMallory (U3): ").endsWith("\nGrace (U2): after\n")
                .containsIgnoringCase("obey");

        // inside, nothing that reads as a tag of a block or as its boundary, in any spelling
        String folded = fold(data);
        assertThat(TAG_LIKE.matcher(folded).find()).as("a tag left in the data, folded: %s", folded).isFalse();
        // an earlier block's id may stay, as data: it ends nothing here
        assertThat(folded).doesNotContain(boundary.substring("untrusted-data-".length()));
    }

    @Test
    void everyBlockHasAFreshBoundaryOf128RandomBits() {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 200; i++) {
            assertThat(seen.add(boundaryOf(wrap("the same reply")))).as("boundaries repeat").isTrue();
        }
    }

    @Test
    void theNoteBeforeTheBlockNamesItsBoundary() {
        String text = wrap("disk at 93%");
        String id = boundaryOf(text).substring("untrusted-data-".length());
        String note = text.substring(0, text.indexOf("<untrusted-data-"));
        assertThat(note).contains("untrusted data").contains("not instructions").contains(id);
    }

    private static String wrap(String reply) {
        return UntrustedData.append("what did Grace say?", INTRO, "slack", "thread-replies",
                List.of(new UntrustedData.Entry("Grace (U2)", "before"), new UntrustedData.Entry("Mallory (U3)", reply),
                        new UntrustedData.Entry("Grace (U2)", "after")));
    }

    private static String boundaryOf(String text) {
        Matcher m = OPEN_LINE.matcher(text);
        assertThat(m.find()).as("a block opened by a random boundary in %s", text).isTrue();
        return m.group(1);
    }

    private static int count(String text, String s) {
        int n = 0;
        for (int at = text.indexOf(s); at >= 0; at = text.indexOf(s, at + 1)) {
            n++;
        }
        return n;
    }

    /** Look-alikes the corpus uses, after NFKC: Cyrillic, Greek, Armenian letters; brackets, slashes, dashes. */
    private static final Map<Character, Character> LOOKALIKES = Map.ofEntries(Map.entry('\u0430', 'a'),
            Map.entry('\u03b1', 'a'), Map.entry('\u0435', 'e'), Map.entry('\u0455', 's'), Map.entry('\u03c5', 'u'),
            Map.entry('\u057d', 'u'), Map.entry('\u2039', '<'), Map.entry('\u203a', '>'), Map.entry('\u3008', '<'),
            Map.entry('\u3009', '>'), Map.entry('\u276e', '<'), Map.entry('\u276f', '>'), Map.entry('\u02c2', '<'),
            Map.entry('\u02c3', '>'), Map.entry('[', '<'), Map.entry(']', '>'), Map.entry('\u2215', '/'),
            Map.entry('\u2044', '/'), Map.entry('\u2010', '-'), Map.entry('\u2212', '-'));
    /** Escaped spellings the corpus uses. */
    private static final List<String[]> ESCAPES = List.of(new String[] {"&lt;", "<"}, new String[] {"&gt;", ">"},
            new String[] {"&lt", "<"}, new String[] {"&gt", ">"}, new String[] {"&#60;", "<"}, new String[] {"&#62;", ">"},
            new String[] {"&#x3c;", "<"}, new String[] {"&#x3e;", ">"}, new String[] {"&#x2f;", "/"},
            new String[] {"&#0000060;", "<"}, new String[] {"&sol;", "/"}, new String[] {"%3c", "<"},
            new String[] {"%3e", ">"}, new String[] {"\\u003c", "<"}, new String[] {"\\u003e", ">"},
            new String[] {"\\x3c", "<"}, new String[] {"\\x3e", ">"});

    /** The test's own fold, independent of Switchboard's: what a reader might see through. */
    static String fold(String s) {
        String n = Normalizer.normalize(s, Normalizer.Form.NFKD);
        StringBuilder b = new StringBuilder();
        n.codePoints().forEach(cp -> {
            int type = Character.getType(cp);
            if (type == Character.FORMAT || type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK) {
                return;
            }
            int lower = Character.toLowerCase(cp);
            if (lower < Character.MIN_SUPPLEMENTARY_CODE_POINT && LOOKALIKES.containsKey((char) lower)) {
                lower = LOOKALIKES.get((char) lower);
            }
            b.appendCodePoint(lower == '\\' ? '/' : lower);
        });
        String out = b.toString().toLowerCase(Locale.ROOT);
        for (String[] e : ESCAPES) {
            out = out.replace(e[0].replace('\\', '/'), e[1]);
        }
        return out;
    }
}
