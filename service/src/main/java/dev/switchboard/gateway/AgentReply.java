package dev.switchboard.gateway;

import io.netty.handler.codec.http.HttpResponse;
import io.vertx.core.buffer.Buffer;

/**
 * What an agent's answer to one relayed request delivers, in order: its head once, its body in chunks as they
 * arrive, then its end — or a failure at any point (refused or timed-out connect, TLS refused, connection lost,
 * a reply that is not HTTP). All on the event loop of the call; nothing after {@link AgentExchange#reset}.
 */
interface AgentReply {

    /** The status line and headers (informational 1xx heads are skipped). */
    void head(HttpResponse head);

    /** Some body bytes: a heap copy the receiver may keep. */
    void content(Buffer chunk);

    /** The body is complete. */
    void end();

    void failed(Throwable cause);
}
