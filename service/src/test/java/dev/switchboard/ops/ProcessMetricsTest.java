package dev.switchboard.ops;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.Metrics;
import dev.switchboard.testing.ServerTest;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** O3: /metrics carries the standard process and JVM metrics, with plausible values, and no name twice. */
@ServerTest
class ProcessMetricsTest {

    @TempDir
    Path dir;

    @Test
    void scrapeCarriesTheStandardProcessAndJvmMetrics() {
        try (Harness h = new Harness(dir).start()) {
            Metrics m = h.metrics();
            long now = Instant.now().getEpochSecond();

            assertThat(m.has("process_resident_memory_bytes")).isTrue();
            assertThat(m.sum("process_resident_memory_bytes")).as("RSS").isGreaterThan(1_000_000);
            assertThat(m.has("process_virtual_memory_bytes")).isTrue();
            assertThat(m.sum("process_open_fds")).as("open fds").isGreaterThan(0);
            assertThat(m.sum("process_max_fds")).as("max fds").isGreaterThanOrEqualTo(m.sum("process_open_fds"));
            assertThat(m.sum("process_start_time_seconds")).as("start time, epoch seconds")
                    .isBetween((double) now - 3600, (double) now + 5);
            assertThat(m.has("process_cpu_seconds_total")).isTrue();
            assertThat(m.sum("process_cpu_seconds_total")).as("CPU seconds").isGreaterThan(0);

            assertThat(m.sum("jvm_memory_used_bytes", "area", "heap")).as("heap used").isGreaterThan(0);
            assertThat(m.has("jvm_memory_max_bytes", "area", "heap")).isTrue();
            assertThat(m.has("jvm_memory_pool_used_bytes")).isTrue();
            assertThat(m.has("jvm_gc_collection_seconds_count")).isTrue();
            assertThat(m.sum("jvm_threads_current")).as("live threads").isGreaterThan(1);
            assertThat(m.has("jvm_threads_state")).isTrue();
            assertThat(m.sum("jvm_classes_currently_loaded")).isGreaterThan(100);
            assertThat(m.has("jvm_runtime_info")).isTrue();

            assertThat(m.text()).as("our own metrics are still there").contains("# TYPE switchboard_");
            assertThat(duplicateTypeLines(m.text())).as("metric families declared twice").isEmpty();
        }
    }

    /** Names with more than one {@code # TYPE} line: two sources claiming the same family. */
    private static List<String> duplicateTypeLines(String text) {
        List<String> seen = new ArrayList<>();
        List<String> twice = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.startsWith("# TYPE ")) {
                String name = line.split(" ")[2];
                if (seen.contains(name)) {
                    twice.add(name);
                }
                seen.add(name);
            }
        }
        return twice;
    }
}
