package dev.switchboard.bridge.support;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;

/**
 * The packaged service ({@code switchboard-app.jar serve}) as a process of its own, so that a test can
 * kill it with SIGKILL and start it again on the same configuration and store. Each run's stdout and
 * stderr are kept under {@code logs}, so a failure can be read after the run.
 */
public final class ServiceProcess implements AutoCloseable {

    /** Failsafe names the packaged jar in this system property; surefire does not. */
    public static final String JAR_PROPERTY = "switchboard.jar";
    private static final Pattern SERVING = Pattern.compile("Switchboard is serving on (http://\\S+)");

    private final Path config;
    private final Path logs;
    private final List<String> args;
    private Process process;
    private int runs;

    public ServiceProcess(Path config, Path logs) {
        this(config, logs, List.of());
    }

    /** With more arguments for {@code serve}, e.g. {@code --log-format json}. */
    public ServiceProcess(Path config, Path logs, List<String> args) {
        this.config = config;
        this.logs = logs;
        this.args = List.copyOf(args);
    }

    /** Starts another run and waits until it serves; returns its base URL. */
    public String start() throws IOException {
        Path jar = Path.of(System.getProperty(JAR_PROPERTY)).toAbsolutePath();
        if (!Files.isRegularFile(jar)) {
            fail("this test runs the packaged service and " + jar + " is missing: run it in failsafe's integration-test"
                    + " phase (./mvnw -pl service verify, the soak with -Psoak), after package has built the jar");
        }
        runs++;
        Files.createDirectories(logs);
        Path out = logs.resolve("service-" + runs + ".out");
        Path err = errLog();
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-jar", jar.toString(), "serve", "--config", config.toString()));
        command.addAll(args);
        Process p = new ProcessBuilder(command)
                .redirectOutput(out.toFile())
                .redirectError(err.toFile())
                .start();
        process = p;
        return Awaitility.await("the service to listen (run " + runs + ")").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(50))
                .until(() -> {
                    if (!p.isAlive()) {
                        fail("the service exited with " + p.exitValue() + ":\n" + Files.readString(err));
                    }
                    Matcher m = SERVING.matcher(Files.readString(out));
                    return m.find() ? m.group(1) : null;
                }, base -> base != null);
    }

    /** SIGKILL: no shutdown hook, no flush, no goodbye to the agent. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        assertThat(process.waitFor(20, TimeUnit.SECONDS)).isTrue();
        assertThat(process.exitValue()).as("killed by SIGKILL").isEqualTo(137);
    }

    /** The current run's process. */
    public Process process() {
        return process;
    }

    /** What the current run has written to stderr (its log). */
    public String errors() throws IOException {
        return Files.readString(errLog());
    }

    private Path errLog() {
        return logs.resolve("service-" + runs + ".err");
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null && process.isAlive()) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }
}
