package dev.switchboard.gateway;

import dev.switchboard.net.Addresses;
import dev.switchboard.registry.AgentOrigin;
import dev.switchboard.registry.EgressPolicy;
import dev.switchboard.registry.RegisteredAgent;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.RequestOptions;
import io.vertx.core.net.SocketAddress;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Arrays;
import java.util.Optional;

/**
 * Aims an outbound request (a relayed call or a card fetch) at an agent. A dynamic agent's host is
 * resolved here, the address checked against the {@link EgressPolicy}, and the connection made to that
 * very address (the URL's host still goes in {@code Host} and SNI): a name that passed at registration
 * and now resolves to a metadata address (DNS rebinding) is refused at connect. Config-file agents
 * are trusted as written and connected to as usual.
 */
public final class Egress {

    /** The agent's address is not one the gateway may connect to. */
    public static final class Refused extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Refused(String detail) {
            super(detail, null, false, false);
        }
    }

    private final Vertx vertx;
    private final EgressPolicy policy;

    public Egress(Vertx vertx, EgressPolicy policy) {
        this.vertx = vertx;
        this.policy = policy;
    }

    public EgressPolicy policy() {
        return policy;
    }

    /** The options, aimed at an address the policy allows; failed with {@link Refused} when there is none. */
    public Future<RequestOptions> aim(RegisteredAgent agent, RequestOptions options) {
        if (agent.origin() == AgentOrigin.CONFIG) {
            return Future.succeededFuture(options);
        }
        return address(agent).map(a -> options.setServer(SocketAddress.inetSocketAddress(a)));
    }

    /**
     * The address to connect to for a dynamic agent: its URL's host resolved, the first address the policy allows;
     * failed with {@link Refused} when there is none. (Config-file agents are not aimed: they are connected to as
     * written.)
     */
    public Future<InetSocketAddress> address(RegisteredAgent agent) {
        // the agent's own URL, checked at registration: the call's URL may carry the caller's query, which
        // need not be a valid URI (Vert.x sends it as it came)
        return address(agent.url());
    }

    /**
     * The address to connect to for {@code url} (a dynamic agent's, or a caller's push URL): its host resolved, the
     * first address the policy allows; failed with {@link Refused} when there is none.
     */
    public Future<InetSocketAddress> address(String url) {
        URI u;
        try {
            u = URI.create(url);
        } catch (IllegalArgumentException e) {
            return Future.failedFuture(new Refused("the URL cannot be read"));
        }
        String host = u.getHost();
        int port = u.getPort() != -1 ? u.getPort() : "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
        Optional<InetAddress> literal = Addresses.literal(host);
        Future<InetAddress[]> resolved = literal.isPresent()
                ? Future.succeededFuture(new InetAddress[] {literal.get()})
                // the JDK resolver blocks (and caches); not ordered: lookups of different calls overlap
                : vertx.executeBlocking(() -> InetAddress.getAllByName(host), false);
        return resolved.compose(addresses -> {
            for (InetAddress a : addresses) {
                if (policy.allows(a, literal.isPresent() ? null : host)) {
                    return Future.succeededFuture(new InetSocketAddress(a, port));
                }
            }
            return Future.failedFuture(new Refused(host + " resolved to " + Arrays.toString(addresses)));
        });
    }
}
