package dev.switchboard.bridge;

import java.text.Normalizer;
import java.util.Arrays;
import java.util.Map;

/**
 * Untrusted text folded to what a reader may take it for, so that a marker spelled in look-alikes is found as surely
 * as one in ASCII: each character decomposed (NFKD: fullwidth and small forms, ligatures, mathematical and circled
 * letters become their plain letters), lowercased, invisible characters dropped (zero-width, joiners, bidi controls,
 * soft hyphen, tag characters, combining marks), the Cyrillic, Greek and Armenian letters and the brackets, slashes and
 * dashes that can spell a marker or its id folded to ASCII, and an escaped {@code <}, {@code /} or {@code >} (HTML
 * entities, percent, {@code \}{@code u003c}, {@code \x3c}) decoded. Each folded character remembers the span of the
 * original it came from, so a marker found in the fold can be cut from the original.
 *
 * <p>One pass, a bounded look-ahead at each {@code &}, {@code %} or backslash: linear in the text's length.
 */
final class Lookalikes {

    /** Look-alikes NFKD leaves alone, by code point; checked before and after lowercasing. */
    private static final Map<Integer, Character> FOLD = Map.ofEntries(
            // brackets, slashes, dashes
            Map.entry(0x2039, '<'), Map.entry(0x3008, '<'), Map.entry(0x27e8, '<'), Map.entry(0x276e, '<'),
            Map.entry(0x276c, '<'), Map.entry(0x02c2, '<'), Map.entry(0x1438, '<'), Map.entry(0x00ab, '<'),
            Map.entry(0x203a, '>'), Map.entry(0x3009, '>'), Map.entry(0x27e9, '>'), Map.entry(0x276f, '>'),
            Map.entry(0x276d, '>'), Map.entry(0x02c3, '>'), Map.entry(0x1433, '>'), Map.entry(0x00bb, '>'),
            Map.entry(0x2215, '/'), Map.entry(0x2044, '/'), Map.entry(0x29f8, '/'), Map.entry(0x2571, '/'),
            Map.entry(0x29f5, '/'), Map.entry((int) '\\', '/'),
            Map.entry(0x2010, '-'), Map.entry(0x2012, '-'), Map.entry(0x2013, '-'), Map.entry(0x2014, '-'),
            Map.entry(0x2015, '-'), Map.entry(0x2212, '-'), Map.entry(0x2043, '-'), Map.entry(0x02d7, '-'),
            Map.entry(0xfe58, '-'),
            // letters of "untrusted-data" and of a hex id
            Map.entry(0x0430, 'a'), Map.entry(0x03b1, 'a'), Map.entry(0x0251, 'a'), Map.entry(0x237a, 'a'),
            Map.entry(0x044c, 'b'), Map.entry(0x0441, 'c'), Map.entry(0x03f2, 'c'), Map.entry(0x1d04, 'c'),
            Map.entry(0x0501, 'd'), Map.entry(0x0435, 'e'), Map.entry(0x04bd, 'e'), Map.entry(0x03b5, 'e'),
            Map.entry(0x0454, 'e'), Map.entry(0x0578, 'n'), Map.entry(0x03b7, 'n'), Map.entry(0x043f, 'n'),
            Map.entry(0x039d, 'n'), Map.entry(0x0433, 'r'), Map.entry(0x0455, 's'), Map.entry(0x0442, 't'),
            Map.entry(0x03c4, 't'), Map.entry(0x03c5, 'u'), Map.entry(0x057d, 'u'), Map.entry(0x1d1c, 'u'),
            Map.entry(0x028b, 'u'));
    /** Named entities for the characters of a marker ({@code &lt;}, {@code &sol;}, …); case does not matter. */
    private static final Map<String, Character> ENTITIES = Map.of("lt", '<', "gt", '>', "sol", '/', "bsol", '/',
            "lowbar", '_', "hyphen", '-', "dash", '-', "minus", '-');

    private Lookalikes() {}

    /** The fold of {@code s}; {@link Folded#from}/{@link Folded#to} give each folded character's original span. */
    static Folded fold(CharSequence s) {
        Folded.Builder out = new Folded.Builder(s.length());
        int n = s.length();
        int i = 0;
        while (i < n) {
            char c = s.charAt(i);
            long escape = c == '&' || c == '%' || c == '\\' ? escape(s, i) : -1;
            int cp;
            int len;
            if (escape >= 0) {
                cp = (int) (escape >>> 8);
                len = (int) (escape & 0xff);
            } else {
                cp = Character.codePointAt(s, i);
                len = Character.charCount(cp);
            }
            emit(out, cp, i, i + len);
            i += len;
        }
        return out.build();
    }

    private static void emit(Folded.Builder out, int cp, int from, int to) {
        if (cp < 0x80) {
            if (cp == '\n' || cp == '\t' || cp == '\r' || cp == '\f' || cp >= 0x20 && cp != 0x7f) {
                out.add(ascii(cp), from, to);
            }
            return;
        }
        if (invisible(cp)) {
            return;
        }
        Character direct = FOLD.get(cp);
        if (direct != null) {
            out.add(direct, from, to);
            return;
        }
        String decomposed = Normalizer.normalize(new String(Character.toChars(cp)), Normalizer.Form.NFKD);
        for (int k = 0; k < decomposed.length(); ) {
            int d = decomposed.codePointAt(k);
            k += Character.charCount(d);
            if (invisible(d)) {
                continue;
            }
            if (d < 0x80) {
                out.add(ascii(d), from, to);
                continue;
            }
            Character folded = FOLD.get(d);
            int lower = folded != null ? folded : Character.toLowerCase(d);
            folded = FOLD.get(lower);
            if (folded != null) {
                out.add(folded, from, to);
            } else if (Character.isDigit(lower)) {
                out.add((char) ('0' + Character.digit(lower, 10)), from, to);
            } else if (Character.isWhitespace(lower) || Character.isSpaceChar(lower)) {
                out.add(' ', from, to);
            } else {
                for (char x : Character.toChars(lower)) {
                    out.add(x, from, to);
                }
            }
        }
    }

    private static char ascii(int cp) {
        if (cp >= 'A' && cp <= 'Z') {
            return (char) (cp + ('a' - 'A'));
        }
        return switch (cp) {
            case '[' -> '<';
            case ']' -> '>';
            case '\\' -> '/';
            case '\r', '\t', '\f' -> ' ';
            default -> (char) cp;
        };
    }

    /** Characters a reader does not see, or sees as part of the one before: dropped from the fold. */
    static boolean invisible(int cp) {
        int type = Character.getType(cp);
        return type == Character.FORMAT || type == Character.NON_SPACING_MARK || type == Character.ENCLOSING_MARK
                || type == Character.CONTROL && !Character.isWhitespace(cp)
                || cp == 0x115f || cp == 0x1160 || cp == 0x3164 || cp == 0xffa0 || cp == 0x2800 || cp == 0x180e;
    }

    /**
     * An escaped character at {@code i} ({@code &lt;}, {@code &#60;}, {@code &#x3c;}, {@code %3C}, {@code \}{@code
     * u003c}, {@code \x3c}): its code point shifted left by 8 with its length in the low byte, or -1. Looks at most
     * 12 characters ahead.
     */
    static long escape(CharSequence s, int i) {
        int n = s.length();
        char c = s.charAt(i);
        if (c == '%') {
            int v = hex(s, i + 1, 2);
            return v >= 0 ? (long) v << 8 | 3 : -1;
        }
        if (c == '\\') {
            if (i + 1 < n && s.charAt(i + 1) == 'x') {
                int v = hex(s, i + 2, 2);
                return v >= 0 ? (long) v << 8 | 4 : -1;
            }
            if (i + 1 < n && s.charAt(i + 1) == 'u') {
                int v = hex(s, i + 2, 4);
                return v >= 0 ? (long) v << 8 | 6 : -1;
            }
            return -1;
        }
        // &name; &#digits; &#xhex; (the ; optional, as browsers read them)
        int j = i + 1;
        if (j < n && s.charAt(j) == '#') {
            j++;
            int radix = j < n && (s.charAt(j) == 'x' || s.charAt(j) == 'X') ? 16 : 10;
            if (radix == 16) {
                j++;
            }
            int start = j;
            long v = 0;
            while (j < n && j - start < 8 && s.charAt(j) < 0x80 && Character.digit(s.charAt(j), radix) >= 0) {
                v = v * radix + Character.digit(s.charAt(j), radix);
                j++;
            }
            if (j == start || v > Character.MAX_CODE_POINT) {
                return -1;
            }
            if (j < n && s.charAt(j) == ';') {
                j++;
            }
            return v << 8 | (j - i);
        }
        int start = j;
        while (j < n && j - start < 6 && s.charAt(j) < 0x80 && Character.isLetter(s.charAt(j))) {
            j++;
        }
        // the longest name that is an entity, so that "&ltx" is "<" then "x"
        for (int end = j; end > start; end--) {
            Character named = ENTITIES.get(s.subSequence(start, end).toString().toLowerCase(java.util.Locale.ROOT));
            if (named != null) {
                int len = end - i + (end < n && s.charAt(end) == ';' ? 1 : 0);
                return (long) named << 8 | len;
            }
        }
        return -1;
    }

    private static int hex(CharSequence s, int at, int digits) {
        if (at + digits > s.length()) {
            return -1;
        }
        int v = 0;
        for (int k = at; k < at + digits; k++) {
            int d = Character.digit(s.charAt(k), 16);
            if (d < 0 || s.charAt(k) >= 0x80) {
                return -1;
            }
            v = v * 16 + d;
        }
        return v;
    }

    /** A fold: its characters, and for each the original span {@code [from, to)} it came from. */
    record Folded(String text, int[] from, int[] to) {

        static final class Builder {
            private final StringBuilder text;
            private int[] from;
            private int[] to;

            Builder(int capacity) {
                text = new StringBuilder(capacity);
                from = new int[Math.max(capacity, 16)];
                to = new int[from.length];
            }

            void add(char c, int start, int end) {
                int at = text.length();
                if (at == from.length) {
                    from = Arrays.copyOf(from, at * 2);
                    to = Arrays.copyOf(to, at * 2);
                }
                text.append(c);
                from[at] = start;
                to[at] = end;
            }

            Folded build() {
                return new Folded(text.toString(), from, to);
            }
        }
    }
}
