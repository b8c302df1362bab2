/**
 * The A2A values as the rest of the code sees them, whatever version the wire spoke: agent cards, tasks, messages,
 * parts, stream events, and each method's params and results, as immutable records and enums. Depends on no other
 * package of ours; Jackson's tree types appear only for free-form JSON (data parts, metadata).
 */
package dev.switchboard.protocol.model;
