/**
 * OpenTelemetry traces, or nothing: off by default (no SDK, no exporter, no thread), on when
 * {@code Server.spec.tracing} names an OTLP endpoint ({@link Tracing}, {@link TracingSettings}); and the preset span ids
 * that let a durable bridge turn keep its trace across restarts ({@link PresetIds}). The gateway's and the bridge's spans
 * use it; it uses no other package of ours.
 */
package dev.switchboard.tracing;
