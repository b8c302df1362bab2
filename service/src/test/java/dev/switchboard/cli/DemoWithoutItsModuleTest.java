package dev.switchboard.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The service alone (as in the production jar, and on this module's test class path) has no {@link Demo}: the demo
 * module provides it. {@code switchboard demo} then ends at once with 1 and says where the demo is.
 */
class DemoWithoutItsModuleTest {

    @Test
    void noDemoIsFoundInTheService() {
        assertThat(Demo.find()).isEmpty();
    }

    @Test
    void theDemoCommandEndsSayingTheAgentsAreNotInThisBuild() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream before = System.err;
        int code;
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            // as Main.main builds it (--log-format's default is the enum's lower-case name)
            code = new CommandLine(new Main()).setCaseInsensitiveEnumValuesAllowed(true).execute("demo", "--port", "0");
        } finally {
            System.setErr(before);
        }
        assertThat(code).isEqualTo(1);
        assertThat(err.toString(StandardCharsets.UTF_8)).contains("the demo agents are not in this build")
                .contains("./switchboard demo");
    }
}
