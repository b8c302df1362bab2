package dev.switchboard.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code switchboard} command line. */
@Command(
        name = "switchboard",
        mixinStandardHelpOptions = true,
        versionProvider = VersionProvider.class,
        description = "A2A gateway and chat bridge.",
        subcommands = {ServeCommand.class, DemoCommand.class, CheckCommand.class})
public final class Main implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        // Netty's buffer allocator registers its JFR events on first use, even with no recording running: loading
        // and setting up JFR took a tenth of the start-up. -Dio.netty.jfr.enabled=true brings them back.
        if (System.getProperty("io.netty.jfr.enabled") == null) {
            System.setProperty("io.netty.jfr.enabled", "false");
        }
        EarlyVertx.begin(args);
        int code = new CommandLine(new Main()).setCaseInsensitiveEnumValuesAllowed(true).execute(args);
        // also 0 after a drained shutdown: a thread a library left behind must not keep the process alive
        System.exit(code);
    }

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }
}
