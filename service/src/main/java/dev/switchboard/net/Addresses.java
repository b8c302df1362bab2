package dev.switchboard.net;

import java.net.Inet4Address;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;

/** Small facts about IP addresses, without DNS. */
public final class Addresses {

    private Addresses() {}

    /** True for a literal IPv4 or IPv6 address (brackets allowed); false for a host name. */
    public static boolean isLiteral(String host) {
        if (host == null || host.isEmpty()) {
            return false;
        }
        String h = unbracket(host);
        if (h.matches("\\d{1,3}(\\.\\d{1,3}){3}")) {
            for (String octet : h.split("\\.")) {
                if (Integer.parseInt(octet) > 255) {
                    return false;
                }
            }
            return true;
        }
        // the JDK parses anything with a colon as an IPv6 literal and never asks DNS for it
        return h.indexOf(':') >= 0 && h.matches("[0-9A-Fa-f:.]+(%[A-Za-z0-9_.-]+)?");
    }

    /** The address of a literal, without DNS; empty for a host name or garbage. */
    public static Optional<InetAddress> literal(String host) {
        if (!isLiteral(host)) {
            return Optional.empty();
        }
        try {
            return Optional.of(InetAddress.getByName(unbracket(host)));
        } catch (UnknownHostException | SecurityException e) {
            return Optional.empty();
        }
    }

    /** True when the listen address only accepts connections from this machine. */
    public static boolean isLoopbackOnly(String listenHost) {
        if (listenHost == null) {
            return false;
        }
        String h = unbracket(listenHost);
        if (h.equalsIgnoreCase("localhost")) {
            return true;
        }
        return literal(h).map(InetAddress::isLoopbackAddress).orElse(false);
    }

    /** An IPv4-mapped IPv6 address ({@code ::ffff:a.b.c.d}) as its IPv4 address, so one rule covers both. */
    public static InetAddress normalise(InetAddress address) {
        if (address instanceof Inet6Address) {
            byte[] b = address.getAddress();
            boolean mapped = true;
            for (int i = 0; i < 10; i++) {
                mapped &= b[i] == 0;
            }
            if (mapped && b[10] == (byte) 0xff && b[11] == (byte) 0xff) {
                try {
                    return Inet4Address.getByAddress(new byte[] {b[12], b[13], b[14], b[15]});
                } catch (UnknownHostException e) {
                    return address;
                }
            }
        }
        return address;
    }

    private static String unbracket(String host) {
        return host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
    }
}
