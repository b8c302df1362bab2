package dev.switchboard.tracing;

import com.google.protobuf.InvalidProtocolBufferException;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceRequest;
import io.opentelemetry.proto.collector.trace.v1.ExportTraceServiceResponse;
import io.opentelemetry.proto.common.v1.AnyValue;
import io.opentelemetry.proto.common.v1.KeyValue;
import io.opentelemetry.proto.resource.v1.Resource;
import io.opentelemetry.proto.trace.v1.ResourceSpans;
import io.opentelemetry.proto.trace.v1.ScopeSpans;
import io.opentelemetry.proto.trace.v1.Span;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * A local OTLP/HTTP trace receiver on an ephemeral port: accepts {@code POST /v1/traces} (protobuf, as the
 * exporter sends), decodes each request with the OTLP protobuf classes and keeps the spans, as a collector would.
 */
public final class OtlpReceiver implements AutoCloseable {

    /** One span as received, ids in lowercase hex ({@code parentSpanId} empty for a root span). */
    public record ReceivedSpan(String traceId, String spanId, String parentSpanId, String traceState, String name,
            Span.SpanKind kind, Map<String, Object> attributes, io.opentelemetry.proto.trace.v1.Status.StatusCode status,
            Map<String, Object> resource, long startNanos, long endNanos) {

        public Object attribute(String key) {
            return attributes.get(key);
        }
    }

    private final HttpServer server;
    private final List<ReceivedSpan> spans = new ArrayList<>();
    private final List<String> problems = new ArrayList<>();
    private int requests;

    private OtlpReceiver(HttpServer server) {
        this.server = server;
    }

    public static OtlpReceiver start(Vertx vertx) {
        OtlpReceiver[] self = new OtlpReceiver[1];
        HttpServer server = vertx.createHttpServer().requestHandler(req -> req.body().onSuccess(body -> {
            if (!"/v1/traces".equals(req.path()) || !"POST".equals(req.method().name())) {
                self[0].problem("unexpected " + req.method() + " " + req.path());
                req.response().setStatusCode(404).end();
                return;
            }
            try {
                self[0].received(ExportTraceServiceRequest.parseFrom(body.getBytes()));
            } catch (InvalidProtocolBufferException e) {
                self[0].problem("not an ExportTraceServiceRequest (" + req.getHeader("Content-Type") + "): " + e);
                req.response().setStatusCode(400).end();
                return;
            }
            req.response().putHeader("Content-Type", "application/x-protobuf")
                    .end(Buffer.buffer(ExportTraceServiceResponse.getDefaultInstance().toByteArray()));
        }));
        self[0] = new OtlpReceiver(server);
        server.listen(0, "127.0.0.1").await();
        return self[0];
    }

    /** The endpoint to configure, as an operator writes it (the exporter adds /v1/traces). */
    public String endpoint() {
        return "http://127.0.0.1:" + server.actualPort();
    }

    public synchronized List<ReceivedSpan> spans() {
        return List.copyOf(spans);
    }

    public synchronized List<ReceivedSpan> trace(String traceId) {
        return spans.stream().filter(s -> s.traceId().equals(traceId)).toList();
    }

    public synchronized Optional<ReceivedSpan> find(Predicate<ReceivedSpan> which) {
        return spans.stream().filter(which).findFirst();
    }

    /** How many export requests arrived. */
    public synchronized int requests() {
        return requests;
    }

    /** Requests that were not OTLP trace exports: a test asserts there are none. */
    public synchronized List<String> problems() {
        return List.copyOf(problems);
    }

    private synchronized void problem(String p) {
        problems.add(p);
    }

    private synchronized void received(ExportTraceServiceRequest request) {
        requests++;
        for (ResourceSpans rs : request.getResourceSpansList()) {
            Map<String, Object> resource = attributes(rs.getResource());
            for (ScopeSpans ss : rs.getScopeSpansList()) {
                for (Span s : ss.getSpansList()) {
                    spans.add(new ReceivedSpan(hex(s.getTraceId().toByteArray()), hex(s.getSpanId().toByteArray()),
                            hex(s.getParentSpanId().toByteArray()), s.getTraceState(), s.getName(), s.getKind(),
                            attributes(s.getAttributesList()), s.getStatus().getCode(), resource,
                            s.getStartTimeUnixNano(), s.getEndTimeUnixNano()));
                }
            }
        }
    }

    private static Map<String, Object> attributes(Resource r) {
        return attributes(r.getAttributesList());
    }

    private static Map<String, Object> attributes(List<KeyValue> kvs) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (KeyValue kv : kvs) {
            AnyValue v = kv.getValue();
            Object value = switch (v.getValueCase()) {
                case STRING_VALUE -> v.getStringValue();
                case INT_VALUE -> v.getIntValue();
                case BOOL_VALUE -> v.getBoolValue();
                case DOUBLE_VALUE -> v.getDoubleValue();
                default -> v.toString();
            };
            out.put(kv.getKey(), value);
        }
        return out;
    }

    private static String hex(byte[] b) {
        return HexFormat.of().formatHex(b);
    }

    @Override
    public void close() {
        server.close().await();
    }
}
