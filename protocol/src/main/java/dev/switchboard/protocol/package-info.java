/**
 * The A2A protocol, version-neutral and with no I/O: the shared Jackson mapper ({@link Json}), the two wire versions
 * ({@link ProtocolVersion}) and how a request tells its own ({@link VersionDetector}), the JSON-RPC method names of each
 * ({@link A2aMethod}), and the {@link Translator} of whole payloads between 0.3 and 1.0. A module of its own that needs
 * only Jackson and {@code java.*}: the gateway, the bridge, the checker and the testkit all build on it.
 *
 * <p>Below it: {@code model} (the neutral values), {@code codec} (each version's JSON), {@code jsonrpc} (envelopes),
 * {@code sse} (event streams) and {@code kagent} (kagent's extensions).
 */
package dev.switchboard.protocol;
