package dev.switchboard.tracing;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.TraceFlags;
import io.opentelemetry.api.trace.TraceState;
import io.opentelemetry.context.Context;
import io.vertx.core.Vertx;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;

/**
 * The tracer as {@link Tracing#start} builds it, exporting to a local OTLP receiver: {@code samplingRatio} decides
 * for new traces while a continued trace follows its caller's sampled flag, and a span started with preset ids (a
 * bridge turn's) gets them.
 */
class SamplingAndTurnIdsTest {

    static Vertx vertx;
    static OtlpReceiver receiver;

    @BeforeAll
    static void start() {
        vertx = Vertx.vertx();
        receiver = OtlpReceiver.start(vertx);
    }

    @AfterAll
    static void stop() {
        receiver.close();
        vertx.close().await();
    }

    @Test
    @DisplayName("samplingRatio 0: new traces are not recorded, and their context says so; a caller's sampled trace "
            + "is recorded all the same")
    void ratioZeroRecordsOnlyWhatACallerSampled() {
        try (Tracing tracing = Tracing.start(new TracingSettings(receiver.endpoint(), "sampled", 0.0), "test")) {
            Span root = tracing.tracer().spanBuilder("new trace").startSpan();
            root.end();
            assertThat(root.getSpanContext().isValid()).as("the context still propagates").isTrue();
            assertThat(root.getSpanContext().isSampled()).isFalse();

            SpanContext caller = SpanContext.createFromRemoteParent("4bf92f3577b34da6a3ce929d0e0e4736",
                    "00f067aa0ba902b7", TraceFlags.getSampled(), TraceState.getDefault());
            Span continued = tracing.tracer().spanBuilder("continued")
                    .setParent(Context.root().with(Span.wrap(caller))).startSpan();
            continued.end();
            assertThat(continued.getSpanContext().isSampled()).isTrue();

            await().until(() -> {
                tracing.flush(Duration.ofSeconds(10));
                return receiver.find(s -> s.name().equals("continued")).isPresent();
            });
            assertThat(receiver.spans()).noneMatch(s -> s.name().equals("new trace"));
        }
    }

    @Test
    @DisplayName("A span started with preset ids has them: both when it has no parent, the span id alone under a "
            + "parent; spans started after it get random ids again")
    void presetIdsGoToThatSpanOnly() {
        try (Tracing tracing = Tracing.start(new TracingSettings(receiver.endpoint(), "ids", 1.0), "test")) {
            String traceId = "0123456789abcdef0123456789abcdef";
            String spanId = "89abcdef01234567";
            Span root = tracing.withIds(traceId, spanId, () -> tracing.tracer().spanBuilder("turn").startSpan());
            assertThat(root.getSpanContext().getTraceId()).isEqualTo(traceId);
            assertThat(root.getSpanContext().getSpanId()).isEqualTo(spanId);

            SpanContext caller = SpanContext.createFromRemoteParent("4bf92f3577b34da6a3ce929d0e0e4736",
                    "00f067aa0ba902b7", TraceFlags.getSampled(), TraceState.getDefault());
            Span child = tracing.withIds(traceId, spanId, () -> tracing.tracer().spanBuilder("turn")
                    .setParent(Context.root().with(Span.wrap(caller))).startSpan());
            assertThat(child.getSpanContext().getTraceId()).as("a parent's trace wins").isEqualTo(caller.getTraceId());
            assertThat(child.getSpanContext().getSpanId()).isEqualTo(spanId);

            Span next = tracing.tracer().spanBuilder("next").startSpan();
            assertThat(next.getSpanContext().getTraceId()).isNotEqualTo(traceId);
            assertThat(next.getSpanContext().getSpanId()).isNotEqualTo(spanId);
            root.end();
            child.end();
            next.end();
        }
    }
}
