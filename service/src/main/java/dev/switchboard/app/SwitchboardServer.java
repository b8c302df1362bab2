package dev.switchboard.app;

import io.vertx.core.Future;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.ext.web.Router;

/**
 * The one HTTP server of a Switchboard process. Features contribute routes to its router before it
 * starts; the server itself owns only the listening socket.
 */
public final class SwitchboardServer {

    private final HttpServer server;
    private final String host;

    private SwitchboardServer(HttpServer server, String host) {
        this.server = server;
        this.host = host;
    }

    /** Listens on host:port (port 0 picks a free one) and serves the router. */
    public static Future<SwitchboardServer> start(Vertx vertx, Router router, String host, int port) {
        // HTTP/1.1 only: SSE needs nothing more, and clients that upgrade to cleartext HTTP/2 (the JDK's)
        // report their own end-of-stream cancel as an error there
        HttpServerOptions options = new HttpServerOptions().setHost(host).setPort(port).setHttp2ClearTextEnabled(false);
        return vertx.createHttpServer(options)
                .requestHandler(router)
                .listen()
                .map(s -> new SwitchboardServer(s, host));
    }

    public int port() {
        return server.actualPort();
    }

    /** The URL clients use to reach this server; a wildcard listen address is shown as 127.0.0.1. */
    public String baseUrl() {
        return baseUrl(host, port());
    }

    public static String baseUrl(String host, int port) {
        String shown = host.equals("0.0.0.0") || host.equals("::") ? "127.0.0.1" : host;
        if (shown.contains(":")) {
            shown = "[" + shown + "]";
        }
        return "http://" + shown + ":" + port;
    }

    public Future<Void> close() {
        return server.close();
    }
}
