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
 * The files generated from {@link ResourceSchemas} are what the schema makes now: deploy/crds/ ({@link CrdGenerator})
 * and the reference tables of docs/configuration.md ({@link ConfigurationDoc}). A change to the schema that is not
 * regenerated, or a hand edit of a generated part, fails here. {@code -Dcrds.write=true} (or
 * {@code -Dswitchboard.regenerate=true}) rewrites them; the failure prints the whole command.
 */
class CrdFilesTest {

    static final Path DIR = Path.of("..", "deploy", "crds");
    /** The CRD chart's copy (HelmChartTest holds it to the generator too). */
    static final Path HELM_DIR = Path.of("..", "deploy", "helm", "switchboard-crds", "templates");
    static final Path CONFIGURATION_DOC = Path.of("..", "docs", "configuration.md");

    private static boolean regenerate() {
        return Boolean.getBoolean("crds.write") || Boolean.getBoolean("switchboard.regenerate");
    }

    @Test
    void docsConfigurationTablesAreWhatTheGeneratorMakes() throws IOException {
        String page = Files.readString(CONFIGURATION_DOC);
        String expected = ConfigurationDoc.render(page);
        if (regenerate()) {
            Files.writeString(CONFIGURATION_DOC, expected);
            page = expected;
        }
        assertThat(page).as("docs/configuration.md's generated tables differ from what ResourceSchemas makes; "
                + "regenerate with: " + CrdGenerator.REGENERATE).isEqualTo(expected);
    }

    @Test
    void deployCrdsAreWhatTheGeneratorMakes() throws IOException {
        Map<String, String> expected = CrdGenerator.files();
        if (regenerate()) {
            for (Path dir : java.util.List.of(DIR, HELM_DIR)) {
                try (Stream<Path> old = Files.exists(dir) ? Files.list(dir) : Stream.empty()) {
                    for (Path p : old.toList()) {
                        Files.delete(p);
                    }
                }
                CrdGenerator.write(dir);
            }
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
