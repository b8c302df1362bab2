package dev.switchboard.tracing;

import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.exporter.otlp.http.trace.OtlpHttpSpanExporter;
import io.opentelemetry.sdk.resources.Resource;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * OpenTelemetry traces, or nothing. Off (the default) there is no SDK, no exporter and no thread: {@link #on()} is
 * false and the gateway and the bridge make no span at all. On, spans are batched and sent over OTLP/HTTP
 * (protobuf) by one exporter thread; a full queue drops spans rather than slow a call.
 */
public final class Tracing implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(Tracing.class);
    private static final Tracing OFF = new Tracing(null, null, null);
    private static final String SCOPE = "dev.switchboard";

    private final SdkTracerProvider provider;
    private final Tracer tracer;
    private final PresetIds ids;

    private Tracing(SdkTracerProvider provider, Tracer tracer, PresetIds ids) {
        this.provider = provider;
        this.tracer = tracer;
        this.ids = ids;
    }

    public static Tracing off() {
        return OFF;
    }

    /** Tracing as the settings say: {@link #off()} unless they name an endpoint. */
    public static Tracing start(TracingSettings settings, String version) {
        if (settings == null || !settings.enabled()) {
            return OFF;
        }
        routeSdkLogs();
        PresetIds ids = new PresetIds();
        OtlpHttpSpanExporter exporter = OtlpHttpSpanExporter.builder().setEndpoint(settings.tracesUrl()).build();
        Resource resource = Resource.getDefault().merge(Resource.create(Attributes.of(
                AttributeKey.stringKey("service.name"), settings.serviceName(),
                AttributeKey.stringKey("service.version"), version)));
        SdkTracerProvider provider = SdkTracerProvider.builder()
                .setResource(resource)
                .setIdGenerator(ids)
                .setSampler(Sampler.parentBased(Sampler.traceIdRatioBased(settings.samplingRatio())))
                .addSpanProcessor(BatchSpanProcessor.builder(exporter).build())
                .build();
        LOG.info("tracing: spans go to {} as service {} (sampling {} of new traces)", settings.tracesUrl(),
                settings.serviceName(), settings.samplingRatio());
        return new Tracing(provider, provider.get(SCOPE, version), ids);
    }

    /** False when tracing is off: no span is made anywhere. */
    public boolean on() {
        return provider != null;
    }

    /** The tracer; only when {@link #on()}. */
    public Tracer tracer() {
        return tracer;
    }

    /** W3C trace context ({@code traceparent}, {@code tracestate}), the only propagation used. */
    public static TextMapPropagator propagator() {
        return W3CTraceContextPropagator.getInstance();
    }

    /**
     * Starts a span with the given ids: {@code traceId} when the span has no parent, {@code spanId} always (see
     * {@link PresetIds}). Only when {@link #on()}.
     */
    public <T> T withIds(String traceId, String spanId, Supplier<T> start) {
        return ids.with(traceId, spanId, start);
    }

    /** Sends every span ended so far; true when the exporter took them within the timeout. */
    public boolean flush(Duration timeout) {
        return provider == null
                || provider.forceFlush().join(timeout.toMillis(), TimeUnit.MILLISECONDS).isSuccess();
    }

    /**
     * Sends what is left and stops the exporter, for 2 s at most: with the collector down the exporter retries for
     * longer, and a stop must not wait on it.
     */
    @Override
    public void close() {
        if (provider != null) {
            provider.shutdown().join(2, TimeUnit.SECONDS);
        }
    }

    /**
     * The SDK reports a failed export through java.util.logging, which would print to standard error in a format of
     * its own: its loggers alone go to SLF4J, and so to Switchboard's log (text or JSON) like every other line.
     */
    private static synchronized void routeSdkLogs() {
        java.util.logging.Logger sdk = java.util.logging.Logger.getLogger("io.opentelemetry");
        if (!sdk.getUseParentHandlers()) {
            return; // done already
        }
        sdk.setUseParentHandlers(false);
        sdk.addHandler(new org.slf4j.bridge.SLF4JBridgeHandler());
    }
}
