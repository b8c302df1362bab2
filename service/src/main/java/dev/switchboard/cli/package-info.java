/**
 * The {@code switchboard} command line ({@link Main}, picocli): {@code serve} (from a file, or from the cluster in
 * watch mode), {@code demo} (built-in testkit agents served in-process, {@link DemoAgents}) and {@code check}; and the
 * process around them: Vert.x started early, log options, the orderly {@link Shutdown}. The top of the graph: nothing
 * uses it.
 */
package dev.switchboard.cli;
