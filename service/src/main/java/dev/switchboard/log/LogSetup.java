package dev.switchboard.log;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.Configurator;
import ch.qos.logback.classic.spi.ConfiguratorRank;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.ConsoleAppender;
import ch.qos.logback.core.spi.ContextAwareBase;
import java.util.Map;

/**
 * The log set-up, in code rather than a logback.xml: parsing XML (Joran, a SAX parser and their few hundred classes)
 * was a quarter of the start-up's CPU time. Found by logback through {@code META-INF/services}; it steps aside for a
 * file named by {@code -Dlogback.configurationFile}. {@link LogFormat} switches the encoder to JSON afterwards.
 */
@ConfiguratorRank(ConfiguratorRank.CUSTOM_NORMAL_PRIORITY)
public final class LogSetup extends ContextAwareBase implements Configurator {

    /** The pattern of a text line: time, level, logger (abbreviated), message. */
    public static final String PATTERN = "%d{HH:mm:ss.SSS} %-5level %logger{20} - %msg%n";

    /**
     * Only the warnings of these: the transport's and the pool's and the migrations' start-up chatter (a dozen INFO
     * lines at every start), and the Slack SDK, which logs requests at DEBUG (nothing of a token may reach a log).
     */
    public static final Map<String, Level> LEVELS = Map.of(
            "io.netty", Level.WARN,
            "io.vertx", Level.WARN,
            "com.zaxxer.hikari", Level.WARN,
            "org.flywaydb", Level.WARN,
            "com.slack.api", Level.WARN);

    @Override
    public ExecutionStatus configure(LoggerContext context) {
        if (System.getProperty("logback.configurationFile") != null) {
            return ExecutionStatus.INVOKE_NEXT_IF_ANY;
        }
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(PATTERN);
        encoder.start();
        ConsoleAppender<ILoggingEvent> stderr = new ConsoleAppender<>();
        stderr.setContext(context);
        stderr.setName("STDERR");
        stderr.setTarget("System.err");
        stderr.setEncoder(encoder);
        stderr.start();
        LEVELS.forEach((name, level) -> context.getLogger(name).setLevel(level));
        ch.qos.logback.classic.Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        root.setLevel(Level.INFO);
        root.addAppender(stderr);
        return ExecutionStatus.DO_NOT_INVOKE_NEXT_IF_ANY;
    }
}
