package dev.switchboard.security;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The corpus of attempts by quoted text to escape its untrusted-data block ({@code untrusted/escape-corpus.txt}):
 * close tags in many spellings and look-alikes, escaped tags, fake speakers, forged openings, boundary guesses. Public,
 * so that any test that feeds hostile text to Switchboard (the fuzz test) can draw from the same list.
 */
public final class EscapeCorpus {

    /** Where a line wants a boundary Switchboard used before. */
    public static final String BOUNDARY = "${boundary}";
    private static final String RESOURCE = "/untrusted/escape-corpus.txt";

    private EscapeCorpus() {}

    /** Every attempt, its escapes decoded, {@link #BOUNDARY} left in place. */
    public static List<String> attempts() {
        List<String> out = new ArrayList<>();
        for (String line : lines()) {
            if (!line.isBlank() && !line.startsWith("#")) {
                out.add(decode(line));
            }
        }
        return List.copyOf(out);
    }

    /** Every attempt, {@link #BOUNDARY} replaced by {@code boundary}. */
    public static List<String> attempts(String boundary) {
        return attempts().stream().map(a -> a.replace(BOUNDARY, boundary)).toList();
    }

    private static List<String> lines() {
        try (InputStream in = EscapeCorpus.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("no test resource " + RESOURCE);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code \n}, {@code \t}, {@code \\} and {@code \}{@code uXXXX}; any other backslash stays as it is. */
    static String decode(String line) {
        StringBuilder b = new StringBuilder(line.length());
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c != '\\' || i + 1 == line.length()) {
                b.append(c);
                continue;
            }
            char n = line.charAt(i + 1);
            if (n == 'n') {
                b.append('\n');
                i++;
            } else if (n == 't') {
                b.append('\t');
                i++;
            } else if (n == '\\') {
                b.append('\\');
                i++;
            } else if (n == 'u' && i + 5 < line.length()) {
                b.append((char) Integer.parseInt(line.substring(i + 2, i + 6), 16));
                i += 5;
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }
}
