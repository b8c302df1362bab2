package dev.switchboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every row a comment of the service's code cites (G5, B14, O7, …) is a heading in {@code docs/}, so a reader can
 * look it up. Only comments count, not string literals, and only the row prefixes of the product (G gateway, B chat
 * bridge, C chat platforms, O operations, X compatibility); {@code B2B}, {@code 0xC1} or {@code C0123} are no rows.
 */
class DocsDefineEveryCitedRowTest {

    private static final Path ROOT = Path.of("..");
    private static final Pattern CITED = Pattern.compile("(?<![\\w-])([GBCOX])(\\d{1,2})(?![\\w-])");
    private static final Pattern DEFINED = Pattern.compile("(?m)^#{1,6} ([GBCOX]\\d{1,2})\\b");

    @Test
    void everyRowCitedInACommentIsAHeadingInDocs() {
        Set<String> defined = definedRows();
        Map<String, List<String>> cited = citedRows();
        assertThat(cited.values().stream().mapToInt(List::size).sum()).as("citations found (the scan works)")
                .isGreaterThan(100);
        Map<String, List<String>> undefined = new TreeMap<>(cited);
        undefined.keySet().removeAll(defined);
        assertThat(undefined).as("rows cited in comments (where) that no docs/ heading defines").isEmpty();
    }

    @Test
    void docsDefineEveryRowOfTheProduct() {
        Set<String> rows = new TreeSet<>();
        rows.addAll(range("G", 12));
        rows.addAll(range("B", 15));
        rows.addAll(range("C", 2));
        rows.addAll(range("O", 7));
        rows.add("X1");
        assertThat(definedRows()).containsAll(rows);
    }

    @Test
    void commentsAreToldFromCode() {
        String source = """
                /** B14: durable. */
                String s = "B7 in a string is no citation"; char c = '"'; // G5 after a char
                String t = \"""
                    O7 in a text block
                    \""";
                /* X1 */ int b2b = 0xC1; // B2B is a word, C0123 a channel
                """;
        assertThat(rowsIn(comments(source))).containsExactlyInAnyOrder("B14", "G5", "X1");
    }

    private static Set<String> range(String prefix, int last) {
        return IntStream.rangeClosed(1, last).mapToObj(i -> prefix + i).collect(Collectors.toSet());
    }

    private static Set<String> definedRows() {
        Set<String> defined = new TreeSet<>();
        try (Stream<Path> pages = Files.list(ROOT.resolve("docs"))) {
            for (Path page : pages.filter(p -> p.toString().endsWith(".md")).toList()) {
                Matcher m = DEFINED.matcher(Files.readString(page));
                while (m.find()) {
                    defined.add(m.group(1));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return defined;
    }

    /** Row id → the files citing it. */
    private static Map<String, List<String>> citedRows() {
        Map<String, List<String>> cited = new TreeMap<>();
        for (String tree : List.of("service/src/main", "service/src/test", "demo/src/main", "demo/src/test")) {
            try (Stream<Path> files = Files.walk(ROOT.resolve(tree))) {
                for (Path file : files.filter(p -> p.toString().endsWith(".java")).sorted().toList()) {
                    for (String row : rowsIn(comments(Files.readString(file)))) {
                        cited.computeIfAbsent(row, r -> new ArrayList<>()).add(ROOT.relativize(file).toString());
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return cited;
    }

    private static List<String> rowsIn(String text) {
        List<String> rows = new ArrayList<>();
        Matcher m = CITED.matcher(text);
        while (m.find()) {
            rows.add(m.group(1) + Integer.parseInt(m.group(2)));
        }
        return rows;
    }

    /** The text of a Java source's comments, each ended by a newline; strings, chars and text blocks skipped. */
    static String comments(String src) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        int n = src.length();
        while (i < n) {
            char c = src.charAt(i);
            if (src.startsWith("//", i)) {
                int end = src.indexOf('\n', i);
                end = end < 0 ? n : end;
                out.append(src, i + 2, end).append('\n');
                i = end;
            } else if (src.startsWith("/*", i)) {
                int end = src.indexOf("*/", i + 2);
                end = end < 0 ? n : end;
                out.append(src, i + 2, end).append('\n');
                i = Math.min(n, end + 2);
            } else if (src.startsWith("\"\"\"", i)) {
                int end = src.indexOf("\"\"\"", i + 3);
                while (end > 0 && src.charAt(end - 1) == '\\') {
                    end = src.indexOf("\"\"\"", end + 1);
                }
                i = end < 0 ? n : end + 3;
            } else if (c == '"' || c == '\'') {
                int j = i + 1;
                while (j < n && src.charAt(j) != c && src.charAt(j) != '\n') {
                    j += src.charAt(j) == '\\' ? 2 : 1;
                }
                i = j + 1;
            } else {
                i++;
            }
        }
        return out.toString();
    }
}
