/**
 * kagent's conventions on top of the neutral model: its human-in-the-loop extension's requests and answers
 * ({@link Hitl}) and the step cards (tool calls and their results) its agents send in data parts ({@link StepCard}).
 */
package dev.switchboard.protocol.kagent;
