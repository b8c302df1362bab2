package dev.switchboard.check;

import static dev.switchboard.check.Evidence.duration;

import dev.switchboard.client.A2aAgentClient;
import dev.switchboard.client.AgentEndpoint;
import dev.switchboard.client.CallException;
import dev.switchboard.client.StreamHandle;
import dev.switchboard.client.StreamListener;
import dev.switchboard.protocol.A2aMethod;
import dev.switchboard.protocol.CallFailure;
import dev.switchboard.protocol.ProtocolVersion;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * The checker's calls to the agent, through the bridge's own client, and what every call showed of the transport:
 * redirects and late response headers (transport.no-redirect, transport.headers-in-30s).
 */
final class AgentCalls {

    /** A call's value, or why it failed. */
    record Outcome<T>(T value, CallFailure failure) {}

    private final CheckLimits limits;
    private final A2aAgentClient client;
    private final List<String> redirects = new ArrayList<>();
    private final List<String> slowHeaders = new ArrayList<>();
    private int calls;
    private AgentEndpoint endpoint;

    AgentCalls(Vertx vertx, CheckLimits limits) {
        this.limits = limits;
        this.client = new A2aAgentClient(vertx, limits.headersTimeout());
    }

    A2aAgentClient client() {
        return client;
    }

    /** The endpoint the methods are called at: null until the card (or --version) told the protocol version. */
    AgentEndpoint endpoint() {
        return endpoint;
    }

    void endpoint(AgentEndpoint endpoint) {
        this.endpoint = endpoint;
    }

    /** A method's name in the agent's protocol version. */
    String method(A2aMethod m) {
        ProtocolVersion v = endpoint == null ? ProtocolVersion.V1_0 : endpoint.version();
        return m.nameIn(v).orElse(m.v10Name());
    }

    <T> Outcome<T> call(String sent, Future<T> future) {
        calls++;
        try {
            T value = future.toCompletionStage().toCompletableFuture()
                    .get(limits.callTimeout().toMillis(), TimeUnit.MILLISECONDS);
            return new Outcome<>(value, null);
        } catch (ExecutionException e) {
            CallFailure f = e.getCause() instanceof CallException ce ? ce.failure()
                    : new CallFailure.Malformed(String.valueOf(e.getCause().getMessage()));
            observeFailure(sent, f);
            return new Outcome<>(null, f);
        } catch (TimeoutException e) {
            return new Outcome<>(null, new CallFailure.Transport(CallFailure.TransportKind.LOST,
                    "no complete reply within " + duration(limits.callTimeout())));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new CouldNotRun("interrupted");
        }
    }

    /** Opens a stream (a send or a subscription); it counts as a call. */
    StreamProbe stream(Function<StreamListener, StreamHandle> open) {
        calls++;
        return StreamProbe.open(open);
    }

    void observeFailure(String sent, CallFailure f) {
        if (f instanceof CallFailure.HttpStatus h && h.status() >= 300 && h.status() < 400) {
            redirects.add(sent + " → HTTP " + h.status());
        } else if (f instanceof CallFailure.Transport t && t.kind() == CallFailure.TransportKind.HEADERS_TIMEOUT) {
            slowHeaders.add(sent);
        }
    }

    /** transport.no-redirect and transport.headers-in-30s, from every call made. */
    void judgeTransport(Verdicts verdicts, String endpointUrl) {
        if (redirects.isEmpty()) {
            verdicts.conclude(RowId.TRANSPORT_NO_REDIRECT, Verdict.PASS, "none of the " + calls + " calls was answered with a 3xx");
        } else {
            verdicts.conclude(RowId.TRANSPORT_NO_REDIRECT, Verdict.FAIL, String.join("; ", redirects)
                    + ": Switchboard follows no redirect, a 3xx is a failed call; answer at " + endpointUrl
                    + " itself");
        }
        if (slowHeaders.isEmpty()) {
            verdicts.conclude(RowId.TRANSPORT_HEADERS_IN_30S, Verdict.PASS, "all " + calls + " calls got their response headers within "
                    + duration(limits.headersTimeout()));
        } else {
            verdicts.conclude(RowId.TRANSPORT_HEADERS_IN_30S, Verdict.FAIL, String.join("; ", slowHeaders) + ": no response headers "
                    + "within " + duration(limits.headersTimeout()) + "; Switchboard counts the call as a lost connection");
        }
    }

    void close() {
        try {
            client.close().toCompletionStage().toCompletableFuture().get(5, TimeUnit.SECONDS);
        } catch (Exception e) {
            // nothing to do: the process (or the test's Vert.x) closes the rest
        }
    }
}
