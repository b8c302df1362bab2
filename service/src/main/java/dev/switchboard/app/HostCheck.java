package dev.switchboard.app;

import dev.switchboard.net.Addresses;
import io.vertx.core.http.HttpHeaders;
import io.vertx.core.http.HttpServerRequest;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The names this server answers to (issue 22, DNS rebinding): a page on a name its attacker then points at our
 * address is same-origin with itself, and its requests reach us carrying that name in {@code Host}, which is the
 * one thing they cannot hide. Every request but the probes is checked here, before any route; a foreign Host is
 * answered 421.
 *
 * <p>Ours, on any port: {@code localhost} and {@code *.localhost}, loopback addresses (127.0.0.0/8, {@code [::1]}),
 * the listen address (every address of this machine for a wildcard listen), {@code publicUrl}'s host and
 * {@code Server.spec.hostNames}. The check is on for a loopback listen (the default install, which asks for no
 * key and is what rebinding is for) and whenever publicUrl or hostNames says what the names are. A server that
 * listens beyond loopback with neither cannot know the names it is reached by, and answers any Host: it needs API
 * keys there ({@code Exposure}), which a rebinding page does not have. {@code hostNames: ["*"]} turns it off.
 *
 * <p>{@code /healthz} and {@code /readyz} answer whatever Host a kubelet sends (it sends the pod's address, or
 * what {@code httpGet.host} says); they tell nothing.
 *
 * <p>A request pays one header lookup and, for a name, a few region compares: no allocation unless the Host is an
 * address other than a loopback one.
 */
public final class HostCheck {

    private static final Logger LOG = LoggerFactory.getLogger(HostCheck.class);
    private static final String REFUSAL = "{\"error\":\"misdirected request: this server does not answer to the host name"
            + " in Host; use localhost, its address or its publicUrl, or add the name to Server.spec.hostNames\","
            + "\"field\":\"Host\"}";

    /** No check: a listen beyond loopback without publicUrl or hostNames, or hostNames {@code *}. */
    private final boolean any;
    /** Exact names, lower case, without a trailing dot. */
    private final String[] names;
    /** {@code .example.com} for a pattern {@code *.example.com}, lower case. */
    private final String[] suffixes;
    /** Addresses accepted besides loopback ones. */
    private final Set<InetAddress> addresses;

    private HostCheck(boolean any, List<String> names, List<String> suffixes, Set<InetAddress> addresses) {
        this.any = any;
        this.names = names.toArray(String[]::new);
        this.suffixes = suffixes.toArray(String[]::new);
        this.addresses = Set.copyOf(addresses);
    }

    /** Answers any Host (tests of other things, and what a listen beyond loopback without names gets). */
    public static HostCheck off() {
        return new HostCheck(true, List.of(), List.of(), Set.of());
    }

    /**
     * @param listenHost the listen address (a name, an address, or a wildcard 0.0.0.0 / ::)
     * @param publicUrl scheme://host[:port] clients reach us at, or null
     * @param hostNames {@code Server.spec.hostNames}: names, {@code *.domain} patterns, addresses or {@code *}
     */
    public static HostCheck of(String listenHost, String publicUrl, List<String> hostNames) {
        boolean loopback = Addresses.isLoopbackOnly(listenHost);
        if (hostNames.contains("*") || (!loopback && publicUrl == null && hostNames.isEmpty())) {
            if (!loopback && !hostNames.contains("*")) {
                LOG.info("listening beyond loopback without publicUrl or hostNames: any Host is answered;"
                        + " set either to refuse other names (DNS rebinding)");
            }
            return off();
        }
        List<String> names = new ArrayList<>();
        List<String> suffixes = new ArrayList<>();
        Set<InetAddress> addresses = new HashSet<>();
        List<String> given = new ArrayList<>(hostNames);
        if (publicUrl != null) {
            given.add(URI.create(publicUrl).getHost());
        }
        String listen = listenHost == null ? "" : listenHost;
        boolean wildcard = listen.equals("0.0.0.0") || listen.equals("::") || listen.equals("[::]") || listen.isEmpty();
        if (wildcard) {
            addresses.addAll(ownAddresses());
        } else if (!loopback) {
            given.add(listen);
        }
        for (String g : given) {
            String n = name(g);
            if (Addresses.isLiteral(n)) {
                Addresses.literal(n).map(Addresses::normalise).ifPresent(addresses::add);
            } else if (n.startsWith("*.")) {
                suffixes.add(n.substring(1));
            } else if (!n.isEmpty()) {
                names.add(n);
            }
        }
        return new HostCheck(false, names, suffixes, addresses);
    }

    /**
     * True, after answering 421, when the request names a host that is not ours; false for the router's and the
     * gateway's requests.
     */
    public boolean refused(HttpServerRequest request) {
        if (any || allows(request.getHeader(HttpHeaders.HOST))) {
            return false;
        }
        String path = request.path();
        if ("/healthz".equals(path) || "/readyz".equals(path)) {
            return false;
        }
        boolean unread = !request.isEnded();
        if (unread) {
            request.response().putHeader(HttpHeaders.CONNECTION, "close");
        }
        // a refusal is no page to frame, but it says so like every web-chat answer does (L4)
        request.response().setStatusCode(421).putHeader(HttpHeaders.CONTENT_TYPE, "application/json")
                .putHeader("X-Frame-Options", "DENY").putHeader("Content-Security-Policy", "frame-ancestors 'none'")
                .end(REFUSAL).onComplete(ar -> {
                    if (unread) {
                        // its body is not read: Vert.x keeps a connection by the request's own keep-alive, whatever we say
                        request.connection().close();
                    }
                });
        return true;
    }

    /** Whether a {@code Host} header's value (host[:port]) names us. */
    boolean allows(String host) {
        if (any) {
            return true;
        }
        if (host == null || host.isEmpty()) {
            return false; // every browser sends one; HTTP/1.1 requires it
        }
        if (host.charAt(0) == '[') {
            int close = host.indexOf(']');
            if (close < 0) {
                return false;
            }
            if (close == 4 && host.regionMatches(1, "::1", 0, 3)) {
                return true;
            }
            return address(host.substring(0, close + 1));
        }
        int end = host.indexOf(':');
        if (end < 0) {
            end = host.length();
        }
        if (end > 0 && host.charAt(end - 1) == '.') {
            end--; // the absolute form of a name: localhost. is localhost
        }
        if (end == 0) {
            return false;
        }
        if (numeric(host, end)) {
            // a browser writes every IPv4 form as dotted decimal: no name can be numeric, so none can be rebound
            return host.startsWith("127.") || address(host.substring(0, end));
        }
        if (end == 9 && host.regionMatches(true, 0, "localhost", 0, 9)) {
            return true;
        }
        if (end > 10 && host.regionMatches(true, end - 10, ".localhost", 0, 10)) {
            return true; // RFC 6761: always loopback, browsers resolve it so themselves
        }
        for (String n : names) {
            if (n.length() == end && host.regionMatches(true, 0, n, 0, end)) {
                return true;
            }
        }
        for (String s : suffixes) {
            if (end > s.length() && host.regionMatches(true, end - s.length(), s, 0, s.length())) {
                return true;
            }
        }
        return false;
    }

    private boolean address(String literal) {
        return Addresses.literal(literal).map(Addresses::normalise)
                .map(a -> a.isLoopbackAddress() || addresses.contains(a)).orElse(false);
    }

    private static boolean numeric(String host, int end) {
        for (int i = 0; i < end; i++) {
            char c = host.charAt(i);
            if ((c < '0' || c > '9') && c != '.') {
                return false;
            }
        }
        return true;
    }

    /** Every address of this machine's interfaces, for a wildcard listen (without zone ids). */
    private static Set<InetAddress> ownAddresses() {
        Set<InetAddress> own = new HashSet<>();
        try {
            for (NetworkInterface i : Collections.list(NetworkInterface.getNetworkInterfaces())) {
                for (InetAddress a : Collections.list(i.getInetAddresses())) {
                    Addresses.literal(a.getHostAddress().replaceFirst("%.*$", "")).map(Addresses::normalise)
                            .ifPresent(own::add);
                }
            }
        } catch (SocketException e) {
            LOG.warn("could not list this machine's addresses ({}): only loopback addresses count as ours",
                    e.getMessage());
        }
        return own;
    }

    /** Lower case, unbracketed, without a trailing dot. */
    private static String name(String host) {
        String h = host.trim().toLowerCase(Locale.ROOT);
        if (h.startsWith("[") && h.endsWith("]")) {
            h = h.substring(1, h.length() - 1);
        }
        return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
    }
}
