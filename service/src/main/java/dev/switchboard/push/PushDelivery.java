package dev.switchboard.push;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.net.Addresses;
import dev.switchboard.registry.EgressPolicy;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClientAgent;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import java.io.IOException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Delivers the outbox to callers' URLs: each pass takes the entries due (leased, so replicas do not send one twice),
 * POSTs each body as the agent sent it with the caller's token ({@code X-A2A-Notification-Token}) and credentials
 * ({@code Authorization}), to an address the egress policy allows (resolved at every attempt), and records the
 * outcome: delivered; tried again after a doubling wait (a connection failure, a timeout, 408, 429 or 5xx); or dropped
 * (attempts exhausted, another 4xx, an address refused, its config gone). The clock is given, so tests move time.
 */
public final class PushDelivery {

    private static final Logger LOG = LoggerFactory.getLogger(PushDelivery.class);
    private static final ObjectMapper JSON = new ObjectMapper();

    /** What one attempt came to. */
    enum Outcome { DELIVERED, RETRY, DROP }

    private final Vertx vertx;
    private final HttpClientAgent client;
    private final PushStore store;
    private final EgressPolicy egress;
    private final PushSettings settings;
    private final PushMetrics metrics;
    private final LongSupplier clock;
    private long timer = -1;
    private final java.util.concurrent.atomic.AtomicBoolean running = new java.util.concurrent.atomic.AtomicBoolean();

    public PushDelivery(Vertx vertx, HttpClientAgent client, PushStore store, EgressPolicy egress, PushSettings settings,
            PushMetrics metrics, LongSupplier clockMillis) {
        this.vertx = vertx;
        this.client = client;
        this.store = store;
        this.egress = egress;
        this.settings = settings;
        this.metrics = metrics;
        this.clock = clockMillis;
    }

    /** Runs a pass every {@code interval} (a pass still running is not started again). */
    public void start(long intervalMillis) {
        timer = vertx.setPeriodic(intervalMillis, id -> soon());
    }

    /** A pass as soon as none is running (a notification just kept); one running already leaves it to the timer. */
    public void soon() {
        if (running.compareAndSet(false, true)) {
            pass().onComplete(done -> running.set(false));
        }
    }

    public void stop() {
        if (timer >= 0) {
            vertx.cancelTimer(timer);
        }
    }

    /** One pass over the entries due now; completes with how many were delivered. */
    public Future<Integer> pass() {
        long now = clock.getAsLong();
        long lease = now + settings.timeout().toMillis() * 3;
        return vertx.executeBlocking(() -> {
            long purgeBefore = now - settings.keepDone().toMillis();
            store.purge(purgeBefore);
            return store.takeDue(now, lease, settings.batch());
        }, false).compose(due -> {
            List<Future<Outcome>> sent = new ArrayList<>();
            for (OutboxEntry e : due) {
                sent.add(attempt(e).recover(x -> Future.succeededFuture(Outcome.RETRY))
                        .compose(o -> record(e, o, now)));
            }
            return Future.join(sent).map(all -> (int) sent.stream().filter(f -> f.result() == Outcome.DELIVERED).count());
        });
    }

    private Future<Outcome> record(OutboxEntry e, Outcome o, long now) {
        int attempts = e.attempts() + 1;
        Outcome effective = o == Outcome.RETRY && attempts >= settings.maxAttempts() ? Outcome.DROP : o;
        return vertx.executeBlocking(() -> {
            switch (effective) {
                case DELIVERED -> store.delivered(e.id());
                case RETRY -> store.retry(e.id(), now + settings.backoffMillis(attempts));
                case DROP -> store.dropped(e.id());
            }
            return effective;
        }, false).onSuccess(r -> {
            switch (r) {
                case DELIVERED -> metrics.delivered();
                case RETRY -> metrics.retried();
                case DROP -> metrics.dropped();
            }
        });
    }

    private Future<Outcome> attempt(OutboxEntry e) {
        return vertx.executeBlocking(() -> store.byCallback(e.callbackId()), false).compose(found -> {
            if (found.isEmpty()) {
                return Future.succeededFuture(Outcome.DROP); // the caller deleted its config
            }
            PushConfig c = found.get();
            return address(c.url()).compose(address -> {
                if (address == null) {
                    LOG.info("push to the caller of {} task {} not sent: its URL's address is not allowed", c.agentId(),
                            c.taskId());
                    return Future.succeededFuture(Outcome.DROP);
                }
                return send(c, e, address);
            }, unresolved -> Future.succeededFuture(Outcome.RETRY));
        });
    }

    /**
     * The address to send to: the URL's host resolved now (a name that passed when the config was set may resolve
     * elsewhere since), the first address the egress policy allows; null when it allows none; failed when the name
     * does not resolve (tried again later).
     */
    private Future<InetSocketAddress> address(String url) {
        URI u = URI.create(url);
        String host = u.getHost();
        int port = u.getPort() != -1 ? u.getPort() : "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
        Optional<InetAddress> literal = Addresses.literal(host);
        Future<InetAddress[]> resolved = literal.isPresent()
                ? Future.succeededFuture(new InetAddress[] {literal.get()})
                : vertx.executeBlocking(() -> InetAddress.getAllByName(host), false);
        return resolved.map(addresses -> {
            for (InetAddress a : addresses) {
                if (egress.allows(a, literal.isPresent() ? null : host)) {
                    return new InetSocketAddress(a, port);
                }
            }
            return null;
        });
    }

    private Future<Outcome> send(PushConfig c, OutboxEntry e, InetSocketAddress address) {
        URI u = URI.create(c.url());
        RequestOptions options = new RequestOptions().setMethod(HttpMethod.POST).setAbsoluteURI(c.url())
                .setServer(SocketAddress.inetSocketAddress(address))
                .setTimeout(settings.timeout().toMillis())
                .putHeader("Content-Type", e.contentType());
        if (c.token() != null) {
            options.putHeader("X-A2A-Notification-Token", c.token());
        }
        authorization(c.authJson()).ifPresent(a -> options.putHeader("Authorization", a));
        Promise<Outcome> outcome = Promise.promise();
        client.request(options)
                .compose(req -> req.send(Buffer.buffer(e.body())))
                .compose(resp -> resp.body().map(b -> resp.statusCode()))
                .onComplete(ar -> {
                    if (ar.failed()) {
                        LOG.info("push to {} for {} failed: {}", u.getHost(), c.agentId(), ar.cause().toString());
                        outcome.complete(Outcome.RETRY);
                        return;
                    }
                    int status = ar.result();
                    outcome.complete(status >= 200 && status < 300 ? Outcome.DELIVERED
                            : status == 408 || status == 429 || status >= 500 ? Outcome.RETRY : Outcome.DROP);
                });
        return outcome.future();
    }

    /** {@code <scheme> <credentials>} from 1.0's {@code {scheme, credentials}} or 0.3's {@code {schemes[], credentials}}. */
    static Optional<String> authorization(String authJson) {
        if (authJson == null) {
            return Optional.empty();
        }
        try {
            JsonNode a = JSON.readTree(authJson);
            String credentials = a.path("credentials").asText("");
            String scheme = a.has("scheme") ? a.path("scheme").asText("") : a.path("schemes").path(0).asText("");
            if (credentials.isEmpty() || scheme.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(scheme + " " + credentials);
        } catch (IOException ex) {
            return Optional.empty();
        }
    }
}
