/**
 * Scriptable A2A agents on Vert.x for tests, the demo and benchmarks ({@link TestAgent}): JSON-RPC and the card in
 * 1.0 and 0.3, a behaviour per message from its directive line or metadata ({@link Behavior}, {@link Script}), every
 * request recorded ({@link Recorder}), and kagent's human-in-the-loop shapes and test vectors. Uses only
 * {@code protocol} of ours.
 */
package dev.switchboard.testkit;
