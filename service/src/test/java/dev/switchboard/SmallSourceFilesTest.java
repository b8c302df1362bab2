package dev.switchboard;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No source file of the service's production code is over {@value #MAX_LINES} lines: a file that grows past it holds
 * more than one idea, and the next reader pays for it (split it along its seams, as SessionDriver and ConfigLoader
 * were).
 */
class SmallSourceFilesTest {

    static final int MAX_LINES = 500;

    @Test
    void noProductionSourceFileIsOverTheLimit() throws IOException {
        Map<String, Long> over = new TreeMap<>();
        int[] seen = {0};
        try (Stream<Path> files = Files.walk(Path.of("src/main/java"))) {
            files.filter(f -> f.toString().endsWith(".java")).forEach(f -> {
                seen[0]++;
                long lines = lines(f);
                if (lines > MAX_LINES) {
                    over.put(f.toString(), lines);
                }
            });
        }
        assertThat(seen[0]).as("source files found (the scan works)").isGreaterThan(100);
        assertThat(over).as("production files over %d lines", MAX_LINES).isEmpty();
    }

    private static long lines(Path file) {
        try (Stream<String> lines = Files.lines(file)) {
            return lines.count();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
