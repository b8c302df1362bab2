/**
 * Who is calling: with API keys configured, a bearer key compared in constant time and known by its name; without
 * them, the remote address ({@link CallerAuth}, G11), whose text {@link RemoteHosts} caches. On Vert.x, with no other
 * package of ours.
 */
package dev.switchboard.auth;
