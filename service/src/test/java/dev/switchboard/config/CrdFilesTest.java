package dev.switchboard.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * deploy/crds/ holds exactly what {@link CrdGenerator} makes of {@link ResourceSchemas}: a change to the config model's
 * description that is not regenerated, or a hand edit of a CRD, fails here. {@code -Dcrds.write=true} rewrites them.
 */
class CrdFilesTest {

    static final Path DIR = Path.of("..", "deploy", "crds");

    @Test
    void deployCrdsAreWhatTheGeneratorMakes() throws IOException {
        Map<String, String> expected = CrdGenerator.files();
        if (Boolean.getBoolean("crds.write")) {
            try (Stream<Path> old = Files.exists(DIR) ? Files.list(DIR) : Stream.empty()) {
                for (Path p : old.toList()) {
                    Files.delete(p);
                }
            }
            CrdGenerator.write(DIR);
        }
        Map<String, String> actual = new TreeMap<>();
        if (Files.isDirectory(DIR)) {
            try (Stream<Path> files = Files.list(DIR)) {
                for (Path p : files.sorted().toList()) {
                    actual.put(p.getFileName().toString(), Files.readString(p));
                }
            }
        }
        String hint = "deploy/crds/ differs from what ResourceSchemas generates; regenerate with: " + CrdGenerator.REGENERATE;
        assertThat(actual.keySet()).as(hint).isEqualTo(expected.keySet());
        for (Map.Entry<String, String> e : expected.entrySet()) {
            assertThat(actual.get(e.getKey())).as(hint + " (" + e.getKey() + ")").isEqualTo(e.getValue());
        }
    }

    @Test
    void everyKindHasTheStatusConditionsWatchModeWrites() {
        for (ResourceKind k : ResourceSchemas.ALL) {
            Map<String, Object> crd = CrdGenerator.crd(k);
            String yaml = CrdGenerator.yaml(k);
            assertThat(yaml).as(k.kind())
                    .contains("group: switchboard.dev", "scope: Namespaced", "status: {}", "lastTransitionTime:",
                            "observedGeneration:", "- name: Ready", "jsonPath: .metadata.creationTimestamp");
            assertThat(crd).containsKey("spec");
        }
    }
}
