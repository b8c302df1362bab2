/**
 * {@code switchboard check}: probes one agent as the chat bridge would call it, through the bridge's own client, and
 * judges each contract row it can observe ({@link RowId}) with the engine's own rules, so the checker and the bridge
 * cannot disagree ({@link Checker}, {@link CheckReport}). Every probe is bounded in time, and the tasks it started are
 * cancelled at the end ({@link CleanUp}).
 */
package dev.switchboard.check;
