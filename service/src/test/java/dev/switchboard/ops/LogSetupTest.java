package dev.switchboard.ops;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.PatternLayoutEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.classic.spi.LoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.ConsoleAppender;
import dev.switchboard.log.LogSetup;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

/**
 * The log set-up in code (no logback.xml): logback finds {@link LogSetup} as a service, and it gives one stderr
 * appender with the text pattern, INFO at the root and only the warnings of the chatty libraries.
 */
class LogSetupTest {

    @Test
    void logbackIsSetUpByLogSetupThroughTheServiceLoader() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        List<Appender<ILoggingEvent>> appenders = new ArrayList<>();
        root.iteratorForAppenders().forEachRemaining(appenders::add);

        assertThat(appenders).hasSize(1);
        ConsoleAppender<ILoggingEvent> stderr = (ConsoleAppender<ILoggingEvent>) appenders.get(0);
        assertThat(stderr.getName()).isEqualTo("STDERR");
        assertThat(stderr.getTarget()).isEqualTo("System.err");
        assertThat(stderr.isStarted()).isTrue();
        assertThat(root.getLevel()).isEqualTo(Level.INFO);
        assertThat(context.getLogger("io.netty.channel.X").getEffectiveLevel()).isEqualTo(Level.WARN);
        assertThat(context.getLogger("com.slack.api.methods.Y").getEffectiveLevel()).isEqualTo(Level.WARN);
        assertThat(context.getLogger("com.zaxxer.hikari.pool.Z").isInfoEnabled()).isFalse();
        assertThat(context.getLogger("dev.switchboard.bridge.SessionDriver").isInfoEnabled()).isTrue();
    }

    @Test
    void aTextLineHasTimeLevelShortLoggerAndMessage() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        PatternLayoutEncoder encoder = new PatternLayoutEncoder();
        encoder.setContext(context);
        encoder.setPattern(LogSetup.PATTERN);
        encoder.start();
        LoggingEvent event = new LoggingEvent(LogSetupTest.class.getName(),
                context.getLogger("dev.switchboard.bridge.SessionDriver"), Level.WARN, "turn {} ended", null,
                new Object[] {"m-1"});

        String line = new String(encoder.encode(event), StandardCharsets.UTF_8);

        assertThat(line).matches("\\d\\d:\\d\\d:\\d\\d\\.\\d{3} WARN  d\\.s\\.b\\.SessionDriver - turn m-1 ended\\R");
    }
}
