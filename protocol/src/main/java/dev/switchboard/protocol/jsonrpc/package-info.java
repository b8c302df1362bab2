/**
 * JSON-RPC 2.0 envelopes as A2A uses them (single calls, no batches): requests with their ids kept as sent,
 * responses, error objects, and the {@link JsonRpcException} that carries the error a request is to be answered with.
 */
package dev.switchboard.protocol.jsonrpc;
