package dev.switchboard.console;

import dev.switchboard.auth.CallerAuth;
import dev.switchboard.auth.TokenChecksBusy;
import dev.switchboard.auth.Unauthorized;
import dev.switchboard.ops.MetricsAccess;
import dev.switchboard.policy.Grants;
import io.vertx.core.Future;
import io.vertx.core.http.HttpServerRequest;
import java.net.InetAddress;
import java.util.function.Supplier;

/**
 * Who may read the console's API. First what {@code /metrics} asks on the main port ({@link MetricsAccess}: open on a
 * loopback-only server, else the admin token, or loopback callers when there is none). A caller that does not pass
 * that may still hold the {@code admin} capability of an AccessPolicy ({@code spec.admin: true}): an API key or a JWT
 * caller among that policy's subjects. The grants are read per request, so watch mode's changes apply at once; and
 * with no admin grant anywhere nobody is authenticated here at all: the answers are exactly those of before.
 *
 * <p>The answers never tell a key that does not exist from no key: both are 401 with the same words; only a caller
 * that proved who it is (so holds the key) learns that it lacks the grant (403).
 */
final class ConsoleAccess {

    static final String NEEDS = "the console needs the admin token, or an API key or token with an admin grant "
            + "(Authorization: Bearer <token>)";

    /** What the guard answers: pass the request on, or refuse it with a status, a message and maybe a challenge. */
    record Answer(int status, String message, String challenge) {
        static final Answer SERVED = new Answer(200, null, null);

        boolean served() {
            return status == 200;
        }
    }

    private final MetricsAccess metrics;
    private final CallerAuth auth;
    private final Supplier<Grants> grants;

    /**
     * @param auth the gateway's callers (API keys, JWT issuers); null: only the admin token
     * @param grants the AccessPolicies in force now
     */
    ConsoleAccess(MetricsAccess metrics, CallerAuth auth, Supplier<Grants> grants) {
        this.metrics = metrics;
        this.auth = auth;
        this.grants = grants;
    }

    Future<Answer> check(InetAddress remote, HttpServerRequest request) {
        String authorization = request.getHeader("Authorization");
        MetricsAccess.Verdict verdict = metrics.verdict(remote, authorization);
        if (verdict == MetricsAccess.Verdict.SERVED) {
            return Future.succeededFuture(Answer.SERVED);
        }
        if (verdict == MetricsAccess.Verdict.NOT_FOUND) {
            return Future.succeededFuture(new Answer(404, "no console here", null));
        }
        Grants now = grants.get();
        if (auth == null || !now.anyAdmin()) {
            // no admin grant anywhere: the console asks what /metrics asks, as it always did
            return Future.succeededFuture(verdict == MetricsAccess.Verdict.TOKEN_NEEDED
                    ? new Answer(401, "the console needs the admin token (Authorization: Bearer <token>)", "Bearer realm=\"switchboard\"")
                    : new Answer(403, "the console is served to this machine only (no admin token is set)", null));
        }
        if (CallerAuth.bearer(authorization) == null || !auth.required()) {
            // no credentials, or a bearer that is not the admin token on a server that knows no key or issuer
            return Future.succeededFuture(new Answer(401, NEEDS, "Bearer realm=\"switchboard\""));
        }
        return auth.authenticate(request).map(caller -> now.admin(caller).isPresent() ? Answer.SERVED
                        : new Answer(403, "forbidden: this caller has no admin grant (an AccessPolicy with admin: true "
                                + "naming it)", null))
                .recover(e -> Future.succeededFuture(e instanceof Unauthorized u ? new Answer(401, NEEDS, u.challenge())
                        : e instanceof TokenChecksBusy ? new Answer(429, "too many new tokens to check: try again", null)
                        : new Answer(503, "the token could not be checked now", null)));
    }
}
