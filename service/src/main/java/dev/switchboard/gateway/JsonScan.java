package dev.switchboard.gateway;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * A strict JSON scanner over UTF-8 bytes for the gateway's hot path: it walks a request or reply once,
 * allocating nothing, and answers only when sure. It accepts a subset of what Jackson's parser accepts with its
 * default features (RFC 8259 JSON: no comments, no trailing commas, no leading zeros, no unescaped control
 * characters, valid UTF-8, modest nesting and token sizes); anything else is {@link #UNSURE}, and the caller
 * hands the bytes to Jackson, whose answer (and error message) stands. So a body this scanner reads is read
 * exactly as Jackson would read it, and a body it cannot read costs one more pass.
 */
final class JsonScan {

    /** Not sure: leave it to Jackson. */
    static final int UNSURE = -1;
    /** Deeper than this is left to Jackson (whose own limit, 200, then applies). */
    private static final int MAX_DEPTH = 64;
    /** Longer numbers are left to Jackson (its limit is 1,000 digits). */
    private static final int MAX_NUMBER = 100;

    final byte[] b;
    final int end;

    JsonScan(byte[] bytes, int offset, int length) {
        this.b = bytes;
        this.end = offset + length;
    }

    /** The first index at or after i that is not JSON whitespace. */
    int ws(int i) {
        while (i < end) {
            byte c = b[i];
            if (c != ' ' && c != '\n' && c != '\r' && c != '\t') {
                return i;
            }
            i++;
        }
        return i;
    }

    /** The index after the value starting at i (whitespace already skipped), or {@link #UNSURE}. */
    int value(int i, int depth) {
        if (i >= end) {
            return UNSURE;
        }
        return switch (b[i]) {
            case '{' -> object(i, depth + 1);
            case '[' -> array(i, depth + 1);
            case '"' -> string(i);
            case 't' -> literal(i, "true");
            case 'f' -> literal(i, "false");
            case 'n' -> literal(i, "null");
            default -> number(i);
        };
    }

    private int object(int i, int depth) {
        if (depth > MAX_DEPTH) {
            return UNSURE;
        }
        i = ws(i + 1);
        if (i < end && b[i] == '}') {
            return i + 1;
        }
        while (true) {
            if (i >= end || b[i] != '"') {
                return UNSURE;
            }
            i = string(i);
            if (i == UNSURE) {
                return UNSURE;
            }
            i = ws(i);
            if (i >= end || b[i] != ':') {
                return UNSURE;
            }
            i = value(ws(i + 1), depth);
            if (i == UNSURE) {
                return UNSURE;
            }
            i = ws(i);
            if (i >= end) {
                return UNSURE;
            }
            if (b[i] == '}') {
                return i + 1;
            }
            if (b[i] != ',') {
                return UNSURE;
            }
            i = ws(i + 1);
        }
    }

    private int array(int i, int depth) {
        if (depth > MAX_DEPTH) {
            return UNSURE;
        }
        i = ws(i + 1);
        if (i < end && b[i] == ']') {
            return i + 1;
        }
        while (true) {
            i = value(i, depth);
            if (i == UNSURE) {
                return UNSURE;
            }
            i = ws(i);
            if (i >= end) {
                return UNSURE;
            }
            if (b[i] == ']') {
                return i + 1;
            }
            if (b[i] != ',') {
                return UNSURE;
            }
            i = ws(i + 1);
        }
    }

    /** Bytes a string may hold as they are: printable ASCII but the quote and the backslash. */
    private static final boolean[] PLAIN = new boolean[256];

    static {
        for (int c = 0x20; c < 0x80; c++) {
            PLAIN[c] = c != '"' && c != '\\';
        }
    }

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;

    /**
     * True when none of the 8 bytes of the word needs a look: no quote, no backslash, no control character, no
     * byte of a multi-byte UTF-8 sequence (SWAR: every test is on all eight bytes at once).
     */
    private static boolean plainWord(long w) {
        long quote = w ^ (ONES * '"');
        long backslash = w ^ (ONES * '\\');
        long zeroQuote = (quote - ONES) & ~quote;
        long zeroBackslash = (backslash - ONES) & ~backslash;
        long control = w - ONES * 0x20; // a byte below 0x20 borrows into its high bit
        return ((zeroQuote | zeroBackslash | control | w) & HIGHS) == 0;
    }

    /** The index after the string starting at i (at its opening quote), or {@link #UNSURE}. */
    int string(int i) {
        i++;
        while (true) {
            // the common case: eight plain bytes at a time, then one table look-up a byte
            while (i + 8 <= end && plainWord((long) LONGS.get(b, i))) {
                i += 8;
            }
            while (i < end && PLAIN[b[i] & 0xff]) {
                i++;
            }
            if (i >= end) {
                return UNSURE;
            }
            int c = b[i] & 0xff;
            if (c == '"') {
                return i + 1;
            }
            if (c == '\\') {
                if (i + 1 >= end) {
                    return UNSURE;
                }
                switch (b[i + 1]) {
                    case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> i += 2;
                    case 'u' -> {
                        if (i + 6 > end || !hex(b[i + 2]) || !hex(b[i + 3]) || !hex(b[i + 4]) || !hex(b[i + 5])) {
                            return UNSURE;
                        }
                        i += 6;
                    }
                    default -> {
                        return UNSURE;
                    }
                }
            } else if (c >= 0x80) {
                i = utf8(i, c);
                if (i == UNSURE) {
                    return UNSURE;
                }
            } else {
                return UNSURE; // an unescaped control character
            }
        }
    }

    /** True when the string at [start, stop) (quotes included) has no escape: its bytes are its text. */
    boolean plain(int start, int stop) {
        for (int i = start + 1; i < stop - 1; i++) {
            if (b[i] == '\\') {
                return false;
            }
        }
        return true;
    }

    /** True when the plain string at [start, stop) (quotes included) is exactly the ASCII text. */
    boolean is(int start, int stop, String text) {
        int n = stop - start - 2;
        if (n != text.length()) {
            return false;
        }
        for (int k = 0; k < n; k++) {
            if (b[start + 1 + k] != text.charAt(k)) {
                return false;
            }
        }
        return true;
    }

    /** One well-formed UTF-8 sequence (no overlongs, no surrogates, at most U+10FFFF) starting at i. */
    private int utf8(int i, int c) {
        int n;
        int min;
        if (c >= 0xc2 && c <= 0xdf) {
            n = 1;
            min = 0x80;
        } else if (c >= 0xe0 && c <= 0xef) {
            n = 2;
            min = 0x800;
        } else if (c >= 0xf0 && c <= 0xf4) {
            n = 3;
            min = 0x10000;
        } else {
            return UNSURE;
        }
        if (i + n >= end) {
            return UNSURE;
        }
        int cp = c & (0x3f >> n);
        for (int k = 1; k <= n; k++) {
            int cc = b[i + k] & 0xff;
            if ((cc & 0xc0) != 0x80) {
                return UNSURE;
            }
            cp = (cp << 6) | (cc & 0x3f);
        }
        if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) {
            return UNSURE;
        }
        return i + n + 1;
    }

    private int literal(int i, String word) {
        int n = word.length();
        if (i + n > end) {
            return UNSURE;
        }
        for (int k = 0; k < n; k++) {
            if (b[i + k] != word.charAt(k)) {
                return UNSURE;
            }
        }
        return delimited(i + n);
    }

    /** -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)? followed by a delimiter. */
    int number(int i) {
        int start = i;
        if (i < end && b[i] == '-') {
            i++;
        }
        if (i >= end) {
            return UNSURE;
        }
        if (b[i] == '0') {
            i++;
        } else if (b[i] >= '1' && b[i] <= '9') {
            i = digits(i);
        } else {
            return UNSURE;
        }
        if (i < end && b[i] == '.') {
            int after = digits(i + 1);
            if (after == i + 1) {
                return UNSURE;
            }
            i = after;
        }
        if (i < end && (b[i] == 'e' || b[i] == 'E')) {
            i++;
            if (i < end && (b[i] == '+' || b[i] == '-')) {
                i++;
            }
            int after = digits(i);
            if (after == i) {
                return UNSURE;
            }
            i = after;
        }
        if (i - start > MAX_NUMBER) {
            return UNSURE;
        }
        return delimited(i);
    }

    /** True when the number at [start, stop) is an integer (no fraction, no exponent). */
    boolean integral(int start, int stop) {
        for (int i = start; i < stop; i++) {
            byte c = b[i];
            if (c == '.' || c == 'e' || c == 'E') {
                return false;
            }
        }
        return true;
    }

    private int digits(int i) {
        while (i < end && b[i] >= '0' && b[i] <= '9') {
            i++;
        }
        return i;
    }

    /** i itself when what follows a number or literal may end it, else {@link #UNSURE}. */
    private int delimited(int i) {
        if (i >= end) {
            return i;
        }
        byte c = b[i];
        return c == ',' || c == '}' || c == ']' || c == ' ' || c == '\n' || c == '\r' || c == '\t' ? i : UNSURE;
    }

    private static boolean hex(byte c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }
}
