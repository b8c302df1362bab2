package dev.switchboard.net;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.List;

/**
 * An IPv4 or IPv6 address block such as {@code 10.0.0.0/8} or {@code fe80::/10}; a bare address is a
 * block of one. Parsed without DNS: only literal addresses are accepted.
 */
public record CidrBlock(byte[] network, int prefix, String text) {

    public static final List<CidrBlock> LOOPBACK = List.of(parse("127.0.0.0/8"), parse("::1/128"));

    /** Parses a block; throws IllegalArgumentException naming what is wrong. */
    public static CidrBlock parse(String text) {
        String t = text == null ? "" : text.trim();
        int slash = t.indexOf('/');
        String addr = slash < 0 ? t : t.substring(0, slash);
        if (!Addresses.isLiteral(addr)) {
            throw new IllegalArgumentException("'" + text + "' is not a CIDR block (e.g. 10.0.0.0/8 or fd00::/8)");
        }
        byte[] bytes;
        try {
            bytes = InetAddress.getByName(addr).getAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("'" + text + "' is not a CIDR block (e.g. 10.0.0.0/8 or fd00::/8)");
        }
        int max = bytes.length * 8;
        int prefix = max;
        if (slash >= 0) {
            String p = t.substring(slash + 1);
            if (!p.matches("\\d{1,3}") || Integer.parseInt(p) > max) {
                throw new IllegalArgumentException("'" + text + "': the prefix length must be 0.." + max);
            }
            prefix = Integer.parseInt(p);
        }
        return new CidrBlock(bytes, prefix, t);
    }

    public boolean contains(InetAddress address) {
        byte[] a = Addresses.normalise(address).getAddress();
        if (a.length != network.length) {
            return false;
        }
        int full = prefix / 8;
        for (int i = 0; i < full; i++) {
            if (a[i] != network[i]) {
                return false;
            }
        }
        int rest = prefix % 8;
        if (rest == 0) {
            return true;
        }
        int mask = (0xff << (8 - rest)) & 0xff;
        return (a[full] & mask) == (network[full] & mask);
    }

    public static boolean anyContains(List<CidrBlock> blocks, InetAddress address) {
        for (CidrBlock b : blocks) {
            if (b.contains(address)) {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CidrBlock c && c.text.equals(text);
    }

    @Override
    public int hashCode() {
        return text.hashCode();
    }

    @Override
    public String toString() {
        return text;
    }
}
