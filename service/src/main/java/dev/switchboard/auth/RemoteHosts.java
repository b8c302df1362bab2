package dev.switchboard.auth;

import io.netty.util.concurrent.FastThreadLocal;
import io.vertx.core.net.SocketAddress;

/**
 * A connection's remote host as text, the caller id without API keys. Vert.x formats it anew on every call
 * ({@code InetAddress.getHostAddress}), for every request of a connection; this remembers the text of the last
 * addresses seen on the calling thread, by identity (a connection keeps its address object), in a small table.
 * A miss costs what it cost before; the table holds at most {@value #SLOTS} addresses per thread.
 */
final class RemoteHosts {

    private static final int SLOTS = 64;
    private static final FastThreadLocal<Object[]> TABLE = new FastThreadLocal<>() {
        @Override
        protected Object[] initialValue() {
            return new Object[2 * SLOTS];
        }
    };

    private RemoteHosts() {}

    /** The address's host as text; "unknown" without an address. */
    static String of(SocketAddress address) {
        if (address == null) {
            return "unknown";
        }
        Object[] table = TABLE.get();
        int slot = 2 * (System.identityHashCode(address) & (SLOTS - 1));
        if (table[slot] == address) {
            return (String) table[slot + 1];
        }
        String host = address.hostAddress();
        table[slot] = address;
        table[slot + 1] = host;
        return host;
    }
}
