package dev.switchboard.auth;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpClient;
import io.vertx.core.http.HttpClientRequest;
import io.vertx.core.http.HttpMethod;
import io.vertx.core.http.RequestOptions;
import java.text.ParseException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One issuer's keys: an inline JWKS, or one fetched from its {@code jwksUri} with Vert.x's HTTP client (never blocking
 * an event loop), bounded in size ({@value #MAX_JWKS_BYTES} bytes) and time ({@link #FETCH_TIMEOUT}), and kept. Keys
 * rotate: a token whose {@code kid} is not in the kept set makes the set be fetched again, at most once per
 * {@code minRefetchInterval} (30 s) however many such tokens arrive, so unknown kids cannot make Switchboard hammer
 * the issuer; and a set older than {@link #MAX_AGE} is fetched again in the background, so a key the issuer withdrew
 * stops verifying. Concurrent fetches are one fetch.
 */
final class IssuerKeys {

    private static final Logger LOG = LoggerFactory.getLogger(IssuerKeys.class);

    static final int MAX_JWKS_BYTES = 64 * 1024;
    static final Duration FETCH_TIMEOUT = Duration.ofSeconds(5);
    static final Duration MAX_AGE = Duration.ofMinutes(10);

    private final JwtIssuer issuer;
    private final Vertx vertx;
    private final HttpClient client;
    private final long minRefetchNanos;
    private volatile VerificationKeys keys = VerificationKeys.NONE;
    private volatile long loadedAt;
    /** When the last fetch began; {@code Long.MIN_VALUE / 2}: never. */
    private volatile long lastAttempt = Long.MIN_VALUE / 2;
    private volatile String lastFailure;
    private final AtomicReference<Future<VerificationKeys>> inFlight = new AtomicReference<>();

    IssuerKeys(JwtIssuer issuer, Vertx vertx, HttpClient client, Duration minRefetchInterval) throws ParseException {
        this.issuer = issuer;
        this.vertx = vertx;
        this.client = client;
        this.minRefetchNanos = minRefetchInterval.toNanos();
        if (issuer.jwks() != null) {
            keys = VerificationKeys.parse(issuer.jwks());
            loadedAt = System.nanoTime();
        }
    }

    JwtIssuer issuer() {
        return issuer;
    }

    /** The keys as kept now; a stale set is refreshed in the background. */
    VerificationKeys current() {
        if (issuer.jwksUri() != null && System.nanoTime() - loadedAt > MAX_AGE.toNanos()) {
            refetch();
        }
        return keys;
    }

    /** Fetches the set at start, so the first caller does not wait for it. */
    void prefetch() {
        if (issuer.jwksUri() != null) {
            refetch();
        }
    }

    /**
     * The keys after fetching them again when allowed (once per interval), else the keys kept: what a token with an
     * unknown {@code kid} waits for.
     */
    Future<VerificationKeys> refetch() {
        if (issuer.jwksUri() == null) {
            return Future.succeededFuture(keys);
        }
        Future<VerificationKeys> running = inFlight.get();
        if (running != null) {
            return running;
        }
        long now = System.nanoTime();
        if (now - lastAttempt < minRefetchNanos) {
            return Future.succeededFuture(keys);
        }
        Promise<VerificationKeys> promise = Promise.promise();
        if (!inFlight.compareAndSet(null, promise.future())) {
            return inFlight.get() == null ? Future.succeededFuture(keys) : inFlight.get();
        }
        lastAttempt = now;
        fetch().onComplete(done -> {
            if (done.succeeded()) {
                try {
                    VerificationKeys parsed = VerificationKeys.parse(done.result());
                    keys = parsed;
                    loadedAt = System.nanoTime();
                    lastFailure = null;
                    LOG.info("JWKS of issuer {} fetched: {} usable keys", issuer.issuer(), parsed.size());
                } catch (ParseException | RuntimeException e) {
                    failed("not a JWKS document");
                }
            } else {
                failed(done.cause().getMessage());
            }
            inFlight.set(null);
            promise.complete(keys);
        });
        return promise.future();
    }

    /** Why the last fetch failed, or null. */
    String lastFailure() {
        return lastFailure;
    }

    private void failed(String why) {
        lastFailure = why;
        LOG.warn("JWKS of issuer {} could not be fetched from {}: {}; the keys kept so far stay in use",
                issuer.issuer(), JwtIssuer.printable(issuer.jwksUri()), why);
    }

    /** The document's text: HTTP 200, at most {@value #MAX_JWKS_BYTES} bytes, within {@link #FETCH_TIMEOUT}. */
    private Future<String> fetch() {
        Promise<String> result = Promise.promise();
        HttpClientRequest[] sent = new HttpClientRequest[1];
        long timer = vertx.setTimer(FETCH_TIMEOUT.toMillis(), t -> {
            if (result.tryFail("no answer within " + FETCH_TIMEOUT.toSeconds() + " s") && sent[0] != null) {
                sent[0].reset();
            }
        });
        RequestOptions options;
        try {
            options = new RequestOptions().setMethod(HttpMethod.GET)
                    .setAbsoluteURI(issuer.jwksUri().toString()).setFollowRedirects(false)
                    .putHeader("Accept", "application/json, application/jwk-set+json");
        } catch (RuntimeException e) {
            // a URI the client does not take fails this fetch (a 401 for the token), never the caller's request
            result.tryFail("the jwksUri is not one the HTTP client takes");
            return result.future().onComplete(done -> vertx.cancelTimer(timer));
        }
        client.request(options).compose(request -> {
            sent[0] = request;
            return request.send();
        }).onComplete(sent0 -> {
            if (sent0.failed()) {
                result.tryFail(String.valueOf(sent0.cause().getMessage()));
                return;
            }
            var response = sent0.result();
            if (response.statusCode() != 200) {
                result.tryFail("HTTP " + response.statusCode());
                response.request().reset();
                return;
            }
            Buffer body = Buffer.buffer();
            response.handler(chunk -> {
                if (body.length() + chunk.length() > MAX_JWKS_BYTES) {
                    if (result.tryFail("larger than " + MAX_JWKS_BYTES + " bytes")) {
                        response.request().reset();
                    }
                    return;
                }
                body.appendBuffer(chunk);
            });
            response.exceptionHandler(e -> result.tryFail(String.valueOf(e.getMessage())));
            response.endHandler(v -> result.tryComplete(body.toString()));
        });
        return result.future().onComplete(done -> vertx.cancelTimer(timer));
    }
}
