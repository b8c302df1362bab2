package dev.switchboard.log;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.Appender;
import ch.qos.logback.core.OutputStreamAppender;
import java.util.Iterator;
import org.slf4j.LoggerFactory;

/**
 * How the log (stderr) is written: {@code text} for people ({@link LogSetup}'s pattern), or {@code json}, one object per
 * line from logback's own {@link JsonEncoder}: {@code timestamp} (epoch ms), {@code level}, {@code threadName},
 * {@code loggerName}, {@code mdc} (the {@link LogContext} ids), {@code formattedMessage} and, with an exception,
 * {@code throwable} (class, message, stack frames, causes).
 */
public enum LogFormat {
    TEXT,
    JSON;

    /** Switches the appenders of the root logger to this format; call it before the first line is logged. */
    public void install() {
        if (this == TEXT) {
            return;
        }
        if (!(LoggerFactory.getILoggerFactory() instanceof LoggerContext context)) {
            throw new IllegalStateException("--log-format json needs logback as the SLF4J backend");
        }
        Logger root = context.getLogger(org.slf4j.Logger.ROOT_LOGGER_NAME);
        for (Iterator<Appender<ILoggingEvent>> it = root.iteratorForAppenders(); it.hasNext(); ) {
            if (it.next() instanceof OutputStreamAppender<ILoggingEvent> appender) {
                JsonEncoder encoder = jsonEncoder(context);
                appender.stop();
                appender.setEncoder(encoder);
                appender.start();
            }
        }
    }

    /** The JSON encoder, started: each event as one line. */
    public static JsonEncoder jsonEncoder(LoggerContext context) {
        JsonEncoder encoder = new JsonEncoder();
        encoder.setContext(context);
        // the template and its arguments would repeat the formatted message; the context and sequence numbers say
        // nothing a reader of one process's log needs
        encoder.setWithContext(false);
        encoder.setWithSequenceNumber(false);
        encoder.setWithNanoseconds(false);
        encoder.setWithMessage(false);
        encoder.setWithArguments(false);
        encoder.setWithFormattedMessage(true);
        encoder.start();
        return encoder;
    }
}
