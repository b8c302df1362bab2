package dev.switchboard.image;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;

/**
 * Issue 23: the testkit leaves the production jar. {@code switchboard-app.jar} (what the image runs too) holds no
 * testkit and no demo class, and no provider of the demo; {@code demo} from it ends at once, saying where the demo is.
 * The demo's agents come from the demo module's jar, beside this one ({@code ./switchboard demo}).
 */
class ProductionJarHoldsNoTestkitIT {

    private static final Path JAR = Path.of(System.getProperty("switchboard.jar", "target/switchboard-app.jar"));

    @Test
    void theJarHoldsNoTestkitOrDemoClass() throws IOException {
        assertThat(JAR).isRegularFile();
        try (ZipFile zip = new ZipFile(JAR.toFile())) {
            List<String> names = zip.stream().map(ZipEntry::getName).toList();
            assertThat(names).as("the service itself is in it").contains("dev/switchboard/cli/Main.class");
            assertThat(names).as("testkit or demo entries")
                    .noneMatch(n -> n.startsWith("dev/switchboard/testkit/") || n.startsWith("dev/switchboard/demo/"))
                    .doesNotContain("META-INF/services/dev.switchboard.cli.Demo");
        }
    }

    @Test
    void theDemoCommandFromTheJarSaysTheDemoIsNotInIt() throws Exception {
        Path out = Files.createTempFile("switchboard-demo", ".out");
        try {
            Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-jar", JAR.toString(), "demo", "--port", "0", "--store", "sqlite:" + out + ".db")
                    .redirectErrorStream(true).redirectOutput(out.toFile()).start();
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).as("ended").isTrue();
            assertThat(p.exitValue()).isEqualTo(1);
            assertThat(Files.readString(out, StandardCharsets.UTF_8))
                    .contains("the demo agents are not in this build")
                    .doesNotContain("Switchboard demo is running");
        } finally {
            Files.deleteIfExists(out);
            Files.deleteIfExists(Path.of(out + ".db"));
        }
    }
}
