/**
 * The {@code switchboard} command line ({@link Main}, picocli): {@code serve} (from a file, or from the cluster in
 * watch mode), {@code demo} (built-in testkit agents served in-process: a {@link Demo} that only the {@code demo}
 * module's jar provides) and {@code check}; and the process around them: Vert.x started early, log options, the
 * orderly {@link Shutdown}. The top of the service's graph: nothing in the service uses it.
 */
package dev.switchboard.cli;
