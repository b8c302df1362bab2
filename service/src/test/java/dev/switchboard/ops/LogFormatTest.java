package dev.switchboard.ops;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.encoder.JsonEncoder;
import ch.qos.logback.classic.spi.LoggingEvent;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.log.LogContext;
import dev.switchboard.log.LogFormat;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/**
 * O3: the JSON log line as {@code --log-format json} writes it: one line, the fields the README names, the ids of
 * {@link LogContext} under {@code mdc}, an exception with its stack; and the ids never outlive their log call.
 */
class LogFormatTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void anEventIsOneJsonLineWithItsIdsAndItsStack() throws Exception {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        JsonEncoder encoder = LogFormat.jsonEncoder(context);
        LoggingEvent event;
        try (LogContext ids = LogContext.thread("t-1").and(LogContext.TURN, "m-1").and(LogContext.AGENT, "echo")) {
            event = new LoggingEvent(LogFormatTest.class.getName(), context.getLogger("dev.switchboard.bridge.X"),
                    Level.WARN, "turn {} of thread {} ended\nbadly", new IllegalStateException("boom",
                            new java.io.IOException("disk")), new Object[] {"m-1", "t-1"});
            event.prepareForDeferredProcessing();
        }
        String line = new String(encoder.encode(event), StandardCharsets.UTF_8);

        assertThat(line).endsWith("\n");
        assertThat(line.strip()).doesNotContain("\n");
        JsonNode json = JSON.readTree(line);
        assertThat(json.path("timestamp").asLong()).isPositive();
        assertThat(json.path("level").asText()).isEqualTo("WARN");
        assertThat(json.path("loggerName").asText()).isEqualTo("dev.switchboard.bridge.X");
        assertThat(json.path("formattedMessage").asText()).isEqualTo("turn m-1 of thread t-1 ended\nbadly");
        assertThat(json.path("mdc").path("thread").asText()).isEqualTo("t-1");
        assertThat(json.path("mdc").path("turn").asText()).isEqualTo("m-1");
        assertThat(json.path("mdc").path("agent").asText()).isEqualTo("echo");
        assertThat(json.path("throwable").path("className").asText()).isEqualTo("java.lang.IllegalStateException");
        assertThat(json.path("throwable").path("message").asText()).isEqualTo("boom");
        assertThat(json.path("throwable").path("stepArray").size()).isPositive();
        assertThat(json.path("throwable").path("cause").path("className").asText()).isEqualTo("java.io.IOException");
        assertThat(json.has("arguments")).as("the arguments repeat the message").isFalse();
    }

    @Test
    void theIdsAreGoneAfterTheirCallAndEarlierOnesComeBack() {
        MDC.put(LogContext.AGENT, "outer");
        try {
            try (LogContext ids = LogContext.agent("inner").and(LogContext.THREAD, "t")) {
                assertThat(MDC.get(LogContext.AGENT)).isEqualTo("inner");
                assertThat(MDC.get(LogContext.THREAD)).isEqualTo("t");
            }
            assertThat(MDC.get(LogContext.AGENT)).isEqualTo("outer");
            assertThat(MDC.get(LogContext.THREAD)).isNull();
        } finally {
            MDC.remove(LogContext.AGENT);
        }
    }
}
