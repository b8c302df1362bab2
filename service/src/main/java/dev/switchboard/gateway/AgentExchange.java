package dev.switchboard.gateway;

import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelOutboundBuffer;
import io.netty.handler.codec.DecoderResult;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpContent;
import io.netty.handler.codec.http.HttpObject;
import io.netty.handler.codec.http.HttpResponse;
import io.netty.handler.codec.http.HttpUtil;
import io.netty.handler.codec.http.LastHttpContent;
import io.netty.util.ReferenceCountUtil;
import io.vertx.core.buffer.Buffer;
import java.io.IOException;

/**
 * One request relayed to an agent and its reply, on one connection of {@link AgentConnections}. The connection goes
 * back to its pool when the reply has ended and both sides keep it alive; anything else — a reset, a failure, a reply
 * that says {@code Connection: close} — closes it. Confined to the connection's event loop, which is the call's.
 */
final class AgentExchange {

    private final AgentReply reply;
    private Channel channel;
    private AgentConnections.Pool pool;
    private boolean finished;
    /** Between an informational (1xx) head and its end: not the reply yet. */
    private boolean informational;
    private boolean keepAlive;

    AgentExchange(AgentReply reply) {
        this.reply = reply;
    }

    /** On a connection, idle or new: sends the request; from here the connection belongs to this exchange. */
    void start(Channel channel, AgentConnections.Pool pool, FullHttpRequest request) {
        if (finished) {
            // reset while the connection was being opened: it never carried anything, so it may serve another call
            pool.release(channel);
            request.release();
            return;
        }
        this.channel = channel;
        this.pool = pool;
        handler(channel).exchange = this;
        // failures of the write reach exceptionCaught, as the read's do
        channel.writeAndFlush(request, channel.voidPromise());
    }

    /** The connection could not be opened. */
    void connectFailed(Throwable cause) {
        if (!finished) {
            finished = true;
            reply.failed(cause);
        }
    }

    /** Gives up on the exchange: the connection is closed, and the reply hears nothing more. */
    void reset() {
        if (finished) {
            return;
        }
        finished = true;
        if (channel != null) {
            detach();
            channel.close();
        }
    }

    /** Stops reading the reply (a slow caller); {@link #resume} reads on. */
    void pause() {
        if (channel != null && !finished) {
            channel.config().setAutoRead(false);
        }
    }

    void resume() {
        if (channel != null && !finished) {
            channel.config().setAutoRead(true);
        }
    }

    private void detach() {
        Handler h = handler(channel);
        if (h != null && h.exchange == this) {
            h.exchange = null;
        }
    }

    private void read(HttpObject msg) {
        DecoderResult decoded = msg.decoderResult();
        if (decoded.isFailure()) {
            fail(decoded.cause());
            return;
        }
        if (msg instanceof HttpResponse head) {
            informational = head.status().codeClass() == io.netty.handler.codec.http.HttpStatusClass.INFORMATIONAL;
            if (!informational) {
                keepAlive = HttpUtil.isKeepAlive(head);
                reply.head(head);
            }
        }
        if (finished) {
            return;
        }
        if (msg instanceof HttpContent content) {
            if (informational) {
                if (content instanceof LastHttpContent) {
                    informational = false;
                }
                return;
            }
            ByteBuf bytes = content.content();
            if (bytes.isReadable()) {
                byte[] copy = new byte[bytes.readableBytes()];
                bytes.getBytes(bytes.readerIndex(), copy);
                reply.content(Buffer.buffer(copy));
            }
            if (!finished && content instanceof LastHttpContent) {
                finished = true;
                detach();
                if (channel.config().isAutoRead() && keepAlive && requestWritten()) {
                    pool.release(channel);
                } else {
                    channel.close();
                }
                reply.end();
            }
        }
    }

    /** A connection may only serve another call once this one's request has left it entirely. */
    private boolean requestWritten() {
        ChannelOutboundBuffer out = channel.unsafe().outboundBuffer();
        return out != null && out.isEmpty();
    }

    private void fail(Throwable cause) {
        if (finished) {
            return;
        }
        finished = true;
        detach();
        channel.close();
        reply.failed(cause);
    }

    /** The connection's own handler: the last of its pipeline. */
    static Handler handler(Channel channel) {
        return (Handler) channel.pipeline().last();
    }

    /** The last handler of every agent connection: hands what the codec decoded to the connection's exchange. */
    static final class Handler extends ChannelInboundHandlerAdapter {
        private AgentExchange exchange;
        /** When the connection went back to its pool (for the idle sweep). */
        long idleSince;

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            try {
                if (exchange != null && msg instanceof HttpObject http) {
                    exchange.read(http);
                } else {
                    // an answer nobody asked for (on an idle connection): the connection cannot be trusted
                    ctx.close();
                }
            } finally {
                ReferenceCountUtil.release(msg);
            }
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            if (exchange != null) {
                exchange.fail(cause);
            } else {
                ctx.close();
            }
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            if (exchange != null) {
                exchange.fail(new IOException("the agent closed the connection"));
            }
            ctx.fireChannelInactive();
        }
    }
}
