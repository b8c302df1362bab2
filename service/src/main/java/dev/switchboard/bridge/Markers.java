package dev.switchboard.bridge;

import java.util.ArrayList;
import java.util.List;

/**
 * Finds, in untrusted text, whatever a reader could take for a tag of an untrusted-data block, opening or closing, and
 * cuts it out. Matched on the text's {@link Lookalikes fold}: {@code <}, optional spaces and {@code /} (or {@code \}),
 * then {@code untrusted}, optional separators ({@code -}, {@code _}, {@code .}, {@code :}, spaces), then {@code data},
 * then the rest of the tag up to its {@code >} on the same line. A plain scan, no regular expression: each character is
 * looked at a bounded number of times, so the work is linear in the text's length whatever the text (L1: a regular
 * expression with two {@code \s*} around an optional slash backtracked quadratically over a run of spaces).
 */
final class Markers {

    /** What a neutralised tag becomes: nothing a fold can read as a tag again. */
    static final String REMOVED = "[tag removed]";
    /** how far past the name a tag's attributes may run before its {@code >} is looked for no further */
    private static final int MAX_TAG = 256;

    private Markers() {}

    /** A tag found: its span {@code [start, end)} in the original text. */
    record Span(int start, int end) {}

    /** The text with its tags cut out, and the fold it was read in (for the boundary check). */
    record Defused(String text, String fold) {}

    /** Every tag in {@code f}'s original, in order, not overlapping. */
    static List<Span> find(Lookalikes.Folded f) {
        String t = f.text();
        int n = t.length();
        List<Span> out = new ArrayList<>();
        int p = 0;
        while (p < n) {
            if (t.charAt(p) != '<') {
                p++;
                continue;
            }
            int q = spaces(t, p + 1);
            if (q < n && t.charAt(q) == '/') {
                q = spaces(t, q + 1);
            }
            int end = name(t, q);
            if (end < 0) {
                p++;
                continue;
            }
            end = tagEnd(t, end);
            out.add(new Span(f.from()[p], f.to()[end - 1]));
            p = end;
        }
        return out;
    }

    /** {@code s} with every tag replaced by {@link #REMOVED}. */
    static Defused defuse(String s) {
        Lookalikes.Folded f = Lookalikes.fold(s);
        List<Span> spans = find(f);
        if (spans.isEmpty()) {
            return new Defused(s, f.text());
        }
        StringBuilder b = new StringBuilder(s.length());
        int at = 0;
        for (Span span : spans) {
            b.append(s, at, span.start()).append(REMOVED);
            at = span.end();
        }
        return new Defused(b.append(s, at, s.length()).toString(), f.text());
    }

    private static int spaces(String t, int i) {
        while (i < t.length() && (t.charAt(i) == ' ' || t.charAt(i) == '\n')) {
            i++;
        }
        return i;
    }

    /** After {@code untrusted}, separators, {@code data} at {@code i}: the index past it, or -1. */
    private static int name(String t, int i) {
        if (!t.startsWith("untrusted", i)) {
            return -1;
        }
        i += "untrusted".length();
        while (i < t.length() && " -_.:".indexOf(t.charAt(i)) >= 0) {
            i++;
        }
        return t.startsWith("data", i) ? i + "data".length() : -1;
    }

    /** Past the tag's {@code >} when it closes on this line within {@link #MAX_TAG}; else {@code i}. */
    private static int tagEnd(String t, int i) {
        for (int k = i; k < t.length() && k - i < MAX_TAG; k++) {
            char c = t.charAt(k);
            if (c == '>') {
                return k + 1;
            }
            if (c == '<' || c == '\n') {
                break;
            }
        }
        return i;
    }
}
