/**
 * A running Switchboard, wired together: the HTTP server with one listener per event loop ({@link SwitchboardServer}),
 * the table of every path it serves and the gateway's bypass of the router ({@link Routes}), the store, registry, gateway, bridge, chat platforms, triggers and ops
 * endpoints, start-up and shutdown ({@link SwitchboardApp}, {@link Starting}, {@link InFlight}); and the guards every
 * request meets whatever route it takes: connection time limits, the Host check, the request-body budget, secure-by-
 * default exposure (O7), the router's own error answers. Only {@code cli} uses it.
 */
package dev.switchboard.app;
