package dev.switchboard.gateway;

import io.netty.bootstrap.Bootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.handler.codec.http.DefaultFullHttpRequest;
import io.netty.handler.codec.http.DefaultHttpHeadersFactory;
import io.netty.handler.codec.http.EmptyHttpHeaders;
import io.netty.handler.codec.http.FullHttpRequest;
import io.netty.handler.codec.http.HttpClientCodec;
import io.netty.handler.codec.http.HttpDecoderConfig;
import io.netty.handler.codec.http.HttpHeaderNames;
import io.netty.handler.codec.http.HttpHeaders;
import io.netty.handler.codec.http.HttpMethod;
import io.netty.handler.codec.http.HttpVersion;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslHandler;
import io.netty.handler.ssl.SslProvider;
import io.netty.util.NetUtil;
import io.netty.util.concurrent.ScheduledFuture;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.internal.ContextInternal;
import io.vertx.core.internal.VertxInternal;
import io.vertx.core.internal.buffer.BufferInternal;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLException;
import javax.net.ssl.SSLParameters;

/**
 * The gateway's connections to agents: plain Netty HTTP/1.1 client connections, pooled per event loop and per agent
 * address, so that a call, its agent connection and every callback stay on the one thread that took the call.
 *
 * <p>Why not Vert.x's HTTP client: measured side by side on the gateway's hot path, a Vert.x server relaying through
 * this kind of connection spends ~4–5 µs less CPU per call than through Vert.x's client (its request and response
 * objects, futures, header maps and pool lease per call), which was most of what kept the gateway behind nginx.
 *
 * <p>Connections are kept alive between calls (an idle one is closed after {@code keepAlive}, at most
 * {@value #MAX_IDLE} idle per agent address and loop); a connection that failed, was reset, or whose reply said
 * {@code Connection: close} is not reused. TLS as Vert.x's client did by default: the JDK's trust store, host name
 * verification, SNI.
 */
public final class AgentConnections {

    static final int MAX_IDLE = 1024;
    static final Duration KEEP_ALIVE = Duration.ofSeconds(60);
    /** As Vert.x's client was set up for agents: 8 KB request line, headers and decoded chunks. */
    private static final int MAX_LINE = 8192;

    /**
     * The agent's reply headers are not validated while decoding: the few relayed to the caller are checked when
     * Vert.x writes them into the caller's response.
     */
    private static final HttpDecoderConfig DECODING = new HttpDecoderConfig().setMaxInitialLineLength(MAX_LINE)
            .setMaxHeaderSize(MAX_LINE).setMaxChunkSize(MAX_LINE)
            .setHeadersFactory(DefaultHttpHeadersFactory.headersFactory().withValidation(false))
            .setTrailersFactory(DefaultHttpHeadersFactory.trailersFactory().withValidation(false));

    private final VertxInternal vertx;
    private final Duration keepAlive;
    private volatile SslContext tls;
    private final ConcurrentHashMap<EventLoop, Loop> loops = new ConcurrentHashMap<>();
    private volatile boolean closed;

    public AgentConnections(Vertx vertx) {
        this(vertx, null, KEEP_ALIVE);
    }

    /** @param tls the TLS client context to use (tests trust their own certificates); null: the JDK's defaults */
    AgentConnections(Vertx vertx, SslContext tls, Duration keepAlive) {
        this.vertx = (VertxInternal) vertx;
        this.tls = tls;
        this.keepAlive = keepAlive;
    }

    /**
     * Sends a POST to the agent from the calling event loop; the reply is delivered to {@code reply} on that loop.
     *
     * @param aimedAt the address to connect to (an egress-checked one), or null to resolve the target's host
     * @param headers the request's headers; {@code Host} and {@code Content-Length} are set here
     */
    AgentExchange post(UpstreamTarget target, InetSocketAddress aimedAt, String uri, HttpHeaders headers, Buffer body,
            int connectTimeoutMs, AgentReply reply) {
        ContextInternal context = ContextInternal.current();
        if (context == null || !context.nettyEventLoop().inEventLoop()) {
            throw new IllegalStateException("agent calls start on an event loop");
        }
        AgentExchange exchange = new AgentExchange(reply);
        headers.set(HttpHeaderNames.HOST, target.authority());
        headers.set(HttpHeaderNames.CONTENT_LENGTH, body.length());
        FullHttpRequest request = new DefaultFullHttpRequest(HttpVersion.HTTP_1_1, HttpMethod.POST, uri,
                ((BufferInternal) body).getByteBuf(), headers, EmptyHttpHeaders.INSTANCE);
        if (closed) {
            request.release();
            exchange.connectFailed(new IllegalStateException("the gateway is shutting down"));
            return exchange;
        }
        Loop loop = loops.computeIfAbsent(context.nettyEventLoop(), Loop::new);
        Pool pool = aimedAt == null ? loop.pool(target) : loop.pool(new Key(target, aimedAt));
        Channel idle = pool.take();
        if (idle != null) {
            exchange.start(idle, pool, request);
            return exchange;
        }
        connect(loop, pool, target, aimedAt, connectTimeoutMs).addListener((ChannelFutureListener) f -> {
            if (f.isSuccess()) {
                exchange.start(f.channel(), pool, request);
            } else {
                request.release();
                exchange.connectFailed(f.cause());
            }
        });
        return exchange;
    }

    private io.netty.channel.ChannelFuture connect(Loop loop, Pool pool, UpstreamTarget target, InetSocketAddress aimedAt,
            int connectTimeoutMs) {
        boolean ssl = target.ssl();
        SslContext context = ssl ? tls() : null;
        Bootstrap bootstrap = new Bootstrap()
                .group(loop.loop)
                .channelFactory(vertx.transport().channelFactory(false))
                .resolver(vertx.nameResolver().nettyAddressResolverGroup())
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, Math.max(1, connectTimeoutMs))
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        if (context != null) {
                            ch.pipeline().addLast(tlsHandler(context, ch, target));
                        }
                        ch.pipeline().addLast(
                                new HttpClientCodec(DECODING, false, false),
                                new AgentExchange.Handler());
                    }
                });
        SocketAddress remote = aimedAt != null ? aimedAt : address(target);
        io.netty.channel.ChannelFuture connecting = bootstrap.connect(remote);
        Channel ch = connecting.channel();
        loop.open.add(ch);
        ch.closeFuture().addListener(f -> loop.open.remove(ch));
        return connecting;
    }

    /** A literal address as it is; a name resolved by Vert.x's resolver when connecting (never on the loop). */
    private static SocketAddress address(UpstreamTarget target) {
        byte[] literal = NetUtil.createByteArrayFromIpAddressString(target.connectHost());
        if (literal != null) {
            try {
                return new InetSocketAddress(InetAddress.getByAddress(target.connectHost(), literal), target.port());
            } catch (java.net.UnknownHostException impossible) {
                // a literal of the right length: cannot happen
            }
        }
        return InetSocketAddress.createUnresolved(target.connectHost(), target.port());
    }

    private static SslHandler tlsHandler(SslContext context, Channel ch, UpstreamTarget target) {
        // the peer's name gives SNI (for names, not addresses) and the name the certificate must carry
        SslHandler handler = context.newHandler(ch.alloc(), target.connectHost(), target.port());
        SSLEngine engine = handler.engine();
        SSLParameters params = engine.getSSLParameters();
        params.setEndpointIdentificationAlgorithm("HTTPS");
        engine.setSSLParameters(params);
        return handler;
    }

    private SslContext tls() {
        SslContext c = tls;
        if (c == null) {
            synchronized (this) {
                if (tls == null) {
                    try {
                        tls = SslContextBuilder.forClient().sslProvider(SslProvider.JDK).build();
                    } catch (SSLException e) {
                        throw new IllegalStateException("TLS is not available: " + e.getMessage(), e);
                    }
                }
                c = tls;
            }
        }
        return c;
    }

    /** Closes every connection, idle or in use; calls made after this fail at once. */
    public Future<Void> close() {
        closed = true;
        List<Future<Void>> all = new ArrayList<>();
        for (Loop loop : loops.values()) {
            Promise<Void> done = Promise.promise();
            loop.loop.execute(() -> {
                loop.close();
                done.complete();
            });
            all.add(done.future());
        }
        loops.clear();
        return Future.join(all).mapEmpty();
    }

    /**
     * An agent address reached through an egress-checked address. A target connected to as written is its own key:
     * targets are made once per URL, so they are looked up by identity, not by hashing their five fields per call.
     */
    record Key(UpstreamTarget target, InetSocketAddress aimedAt) {}

    /** One event loop's pools, its open connections (to close them all), and the sweep of idle ones. */
    private final class Loop {
        final EventLoop loop;
        final Map<Object, Pool> pools = new HashMap<>();
        final Map<UpstreamTarget, Pool> direct = new IdentityHashMap<>();
        final Set<Channel> open = new HashSet<>();
        ScheduledFuture<?> sweep;
        boolean closed;

        Loop(EventLoop loop) {
            this.loop = loop;
        }

        Pool pool(UpstreamTarget target) {
            Pool p = direct.get(target);
            if (p == null || p.removed) {
                p = pool((Object) target);
                direct.put(target, p);
            }
            return p;
        }

        Pool pool(Object key) {
            Pool p = pools.get(key);
            if (p == null) {
                p = new Pool(this, key);
                pools.put(key, p);
                if (sweep == null) {
                    long every = Math.max(10, Math.min(5_000, keepAlive.toMillis() / 2));
                    sweep = loop.scheduleAtFixedRate(this::sweep, every, every, TimeUnit.MILLISECONDS);
                }
            }
            return p;
        }

        void sweep() {
            long now = System.nanoTime();
            pools.values().removeIf(p -> p.removed = p.expire(now, keepAlive.toNanos()));
            direct.values().removeIf(p -> p.removed);
        }

        void close() {
            closed = true;
            if (sweep != null) {
                sweep.cancel(false);
            }
            for (Channel ch : List.copyOf(open)) {
                ch.close();
            }
            pools.clear();
            direct.clear();
        }
    }

    /** The idle connections to one agent address, most recently used first. */
    static final class Pool {
        private final Loop owner;
        private final Object key;
        private final ArrayDeque<Channel> idle = new ArrayDeque<>();
        /** Swept away with nothing idle: a connection busy meanwhile goes back into the address's new pool. */
        boolean removed;

        private Pool(Loop owner, Object key) {
            this.owner = owner;
            this.key = key;
        }

        Channel take() {
            Channel ch;
            while ((ch = idle.pollFirst()) != null) {
                if (ch.isActive()) {
                    return ch;
                }
            }
            return null;
        }

        void release(Channel ch) {
            if (!ch.isActive() || owner.closed || idle.size() >= MAX_IDLE) {
                ch.close();
                return;
            }
            if (removed) {
                (key instanceof UpstreamTarget t ? owner.pool(t) : owner.pool(key)).release(ch);
                return;
            }
            AgentExchange.handler(ch).idleSince = System.nanoTime();
            idle.addFirst(ch);
        }

        /** Closes connections idle longer than the keep-alive; true when none is left. */
        boolean expire(long now, long keepAliveNanos) {
            Channel oldest;
            while ((oldest = idle.peekLast()) != null
                    && now - AgentExchange.handler(oldest).idleSince >= keepAliveNanos) {
                idle.pollLast().close();
            }
            return idle.isEmpty();
        }
    }

    /** For tests: idle connections pooled now, over all loops. */
    int idleConnections() {
        int n = 0;
        for (Loop loop : loops.values()) {
            for (Pool p : loop.pools.values()) {
                n += p.idle.size();
            }
        }
        return n;
    }
}
