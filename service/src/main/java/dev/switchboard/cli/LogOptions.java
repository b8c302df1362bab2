package dev.switchboard.cli;

import dev.switchboard.log.LogFormat;
import picocli.CommandLine.Option;

/** {@code --log-format text|json}, shared by the commands that run the service. */
final class LogOptions {

    @Option(names = "--log-format", defaultValue = "text", paramLabel = "text|json",
            description = "How the log (stderr) is written: text for people (default), or json, one object per line.")
    LogFormat format = LogFormat.TEXT;

    /** Installs the format; the commands call it before anything logs. */
    void install() {
        format.install();
    }

    /**
     * A message that ends the command: a plain line on stderr, or a log line in JSON mode, so that every line of a
     * JSON log parses.
     */
    void fatal(String message) {
        if (format == LogFormat.JSON) {
            org.slf4j.LoggerFactory.getLogger("dev.switchboard.cli").error(message);
        } else {
            System.err.println(message);
        }
    }
}
