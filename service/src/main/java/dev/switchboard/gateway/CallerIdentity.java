package dev.switchboard.gateway;

import dev.switchboard.auth.Caller;
import dev.switchboard.auth.identity.IdentitySigner;
import dev.switchboard.registry.RegisteredAgent;
import io.vertx.core.MultiMap;
import io.vertx.ext.web.RoutingContext;

/**
 * What an agent is told of its caller beyond the caller-id header, as its AgentBackend asks
 * ({@link RegisteredAgent.CallerForwarding}): a token Switchboard signs ({@value #HEADER}), or a JWT caller's own
 * bearer token as {@code Authorization}; by default neither. Both headers are ours: {@link HeaderPolicy} drops a
 * caller's {@code X-Switchboard-Caller-JWT} and {@code Authorization} before this writes them.
 */
public final class CallerIdentity {

    public static final String HEADER = "X-Switchboard-Caller-JWT";
    public static final CallerIdentity NONE = new CallerIdentity(null);

    private final IdentitySigner signer;

    public CallerIdentity(IdentitySigner signer) {
        this.signer = signer;
    }

    void writeTo(MultiMap out, Caller caller, RegisteredAgent agent) {
        switch (agent.callerForwarding()) {
            case SIGNED -> {
                if (signer != null) {
                    out.set(HEADER, signer.tokenFor(caller, agent.id()));
                }
            }
            case PASS_THROUGH -> {
                // only a JWT caller's own token; an API key is Switchboard's credential, never an agent's
                if (caller.kind() == Caller.Kind.JWT && caller.bearer() != null) {
                    out.set("Authorization", "Bearer " + caller.bearer());
                }
            }
            case NONE -> { }
        }
    }

    /** {@code GET /.well-known/jwks.json}: the public key agents verify {@value #HEADER} with. */
    public void jwks(RoutingContext ctx) {
        if (signer == null) {
            ctx.response().setStatusCode(404).putHeader("Content-Type", "application/json")
                    .end("{\"error\":\"no caller-identity key: no signing key is configured\"}");
            return;
        }
        ctx.response().putHeader("Content-Type", "application/jwk-set+json")
                .putHeader("Cache-Control", "max-age=300").end(signer.jwks());
    }
}
