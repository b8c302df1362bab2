package dev.switchboard.registry;

import dev.switchboard.net.Addresses;
import dev.switchboard.net.CidrBlock;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Where agents registered over the API may point. Whoever may register can otherwise make the gateway
 * call any address it can reach: the cloud's metadata service (credentials), link-local devices. So a
 * dynamic agent's address is never link-local, a metadata address or unspecified, and, when
 * {@code registry.allowedHosts} is set, must match it: CIDR blocks against the resolved address, host
 * patterns ({@code *.example.com}) against the name. The URL is checked at registration and the
 * resolved address again at every connect, since DNS may answer differently then. Config-file agents
 * are trusted as written and never pass through here.
 */
public final class EgressPolicy {

    private static final List<CidrBlock> NEVER = List.of(
            CidrBlock.parse("169.254.0.0/16"),      // IPv4 link-local, AWS/GCP/Azure/Oracle metadata among them
            CidrBlock.parse("fe80::/10"),           // IPv6 link-local
            CidrBlock.parse("fd00:ec2::254/128"),   // AWS metadata over IPv6
            CidrBlock.parse("fd20:ce::254/128"),    // GCP metadata over IPv6
            CidrBlock.parse("100.100.100.200/32"),  // Alibaba Cloud metadata
            CidrBlock.parse("168.63.129.16/32"),    // Azure wireserver: the VM agent's channel, its certificates
            CidrBlock.parse("192.0.0.192/32"),      // Oracle Cloud's classic metadata address
            // local-use NAT64 (RFC 8215): where the IPv4 address sits depends on the site's prefix length (RFC 6052),
            // so which one it reaches cannot be read off the address; no agent needs it
            CidrBlock.parse("64:ff9b:1::/48"),
            CidrBlock.parse("0.0.0.0/8"),           // "this host": connecting to 0.0.0.0 reaches local services
            CidrBlock.parse("::/128"),
            CidrBlock.parse("224.0.0.0/4"),         // multicast is no agent
            CidrBlock.parse("ff00::/8"));

    /** Metadata services reachable by name (their addresses are refused above, this refuses early). */
    private static final Set<String> METADATA_NAMES = Set.of(
            "metadata", "metadata.google.internal", "metadata.goog", "instance-data", "instance-data.ec2.internal",
            "metadata.azure.internal", "metadata.platformequinix.com", "metadata.tencentyun.com");

    private final List<CidrBlock> allowedBlocks;
    private final List<String> allowedNames;

    private EgressPolicy(List<CidrBlock> allowedBlocks, List<String> allowedNames) {
        this.allowedBlocks = List.copyOf(allowedBlocks);
        this.allowedNames = List.copyOf(allowedNames);
    }

    /** The policy of {@code registry.allowedHosts} (entries already validated by the config loader). */
    public static EgressPolicy of(List<String> allowedHosts) {
        List<CidrBlock> blocks = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (String a : allowedHosts) {
            if (a.contains("/") || Addresses.isLiteral(a)) {
                blocks.add(CidrBlock.parse(a));
            } else {
                names.add(a.toLowerCase(Locale.ROOT));
            }
        }
        return new EgressPolicy(blocks, names);
    }

    /**
     * What is wrong with a registered URL, or empty. Beyond scheme and host: no userinfo (credentials
     * in URLs end up in logs), no query or fragment (they would steer the card path and the relayed
     * query), and a host that can pass {@link #allows} at all.
     */
    public Optional<String> problemWithUrl(String url) {
        URI u;
        try {
            u = new URI(url);
        } catch (URISyntaxException e) {
            return Optional.of("is not a URL");
        }
        if (!u.isAbsolute() || u.getHost() == null
                || !("http".equalsIgnoreCase(u.getScheme()) || "https".equalsIgnoreCase(u.getScheme()))) {
            return Optional.of("must be an absolute http or https URL");
        }
        if (u.getRawUserInfo() != null) {
            return Optional.of("must not carry user information (user:password@)");
        }
        if (u.getPort() == 0 || u.getPort() > 65535) {
            return Optional.of("has a port outside 1..65535");
        }
        if (u.getRawQuery() != null || u.getRawFragment() != null) {
            return Optional.of("must not have a query or a fragment");
        }
        String host = u.getHost();
        if (host.startsWith("[")) {
            // an IPv6 literal; a zone (%eth0) names an interface, not another address: judge the address
            int zone = host.indexOf('%');
            host = zone < 0 ? host : host.substring(0, zone) + "]";
            if (Addresses.literal(host).isEmpty()) {
                return Optional.of("has an IPv6 address that cannot be read");
            }
        }
        Optional<InetAddress> literal = Addresses.literal(host);
        if (literal.isPresent()) {
            return allows(literal.get(), null) ? Optional.empty() : Optional.of("points at an address agents may not use");
        }
        String name = normaliseName(host);
        if (METADATA_NAMES.contains(name)) {
            return Optional.of("points at a cloud metadata service");
        }
        if (!allowedBlocks.isEmpty() || allowedNames.isEmpty() || nameMatches(name)) {
            return Optional.empty(); // a CIDR rule may still admit what the name resolves to: decided at connect
        }
        return Optional.of("host is not in registry.allowedHosts");
    }

    /** Whether a dynamic agent named {@code host} (null for a literal) may be reached at {@code address}. */
    public boolean allows(InetAddress address, String host) {
        InetAddress a = Addresses.normalise(address);
        if (CidrBlock.anyContains(NEVER, a) || embeddedV4(a).map(v4 -> CidrBlock.anyContains(NEVER, v4)).orElse(false)) {
            return false;
        }
        if (host != null && METADATA_NAMES.contains(normaliseName(host))) {
            return false;
        }
        if (allowedBlocks.isEmpty() && allowedNames.isEmpty()) {
            return true;
        }
        return CidrBlock.anyContains(allowedBlocks, a) || (host != null && nameMatches(normaliseName(host)));
    }

    private boolean nameMatches(String name) {
        for (String pattern : allowedNames) {
            if (pattern.startsWith("*.") ? name.endsWith(pattern.substring(1)) : name.equals(pattern)) {
                return true;
            }
        }
        return false;
    }

    private static String normaliseName(String host) {
        String h = host.toLowerCase(Locale.ROOT);
        return h.endsWith(".") ? h.substring(0, h.length() - 1) : h;
    }

    /**
     * The IPv4 address an IPv6 address carries to an IPv4 host: IPv4-compatible ({@code ::a.b.c.d}), IPv4-translated
     * ({@code ::ffff:0:a.b.c.d}, SIIT), the well-known NAT64 prefix ({@code 64:ff9b::a.b.c.d}) and 6to4
     * ({@code 2002:AABB:CCDD::}, whose relay sends to a.b.c.d). IPv4-mapped ones are {@link Addresses#normalise}d
     * before; local-use NAT64 is refused whole.
     */
    private static Optional<InetAddress> embeddedV4(InetAddress a) {
        if (!(a instanceof Inet6Address)) {
            return Optional.empty();
        }
        byte[] b = a.getAddress();
        if (b[0] == 0x20 && b[1] == 0x02) {
            return v4(b, 2);
        }
        boolean zeroes = true; // bytes 4..7 are zero in all three of the others
        for (int i = 4; i < 8; i++) {
            zeroes &= b[i] == 0;
        }
        boolean nat64 = b[0] == 0 && b[1] == 0x64 && b[2] == (byte) 0xff && b[3] == (byte) 0x9b;
        boolean low = b[0] == 0 && b[1] == 0 && b[2] == 0 && b[3] == 0;
        // not ::1 or ::, which are loopback and unspecified themselves
        boolean compatible = low && b[8] == 0 && b[9] == 0 && b[10] == 0 && b[11] == 0 && b[12] != 0;
        boolean translated = low && b[8] == (byte) 0xff && b[9] == (byte) 0xff && b[10] == 0 && b[11] == 0;
        nat64 &= b[8] == 0 && b[9] == 0 && b[10] == 0 && b[11] == 0;
        return zeroes && (compatible || translated || nat64) ? v4(b, 12) : Optional.empty();
    }

    private static Optional<InetAddress> v4(byte[] b, int from) {
        try {
            return Optional.of(InetAddress.getByAddress(new byte[] {b[from], b[from + 1], b[from + 2], b[from + 3]}));
        } catch (UnknownHostException e) {
            return Optional.empty();
        }
    }
}
