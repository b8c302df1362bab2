/**
 * Helpers for our own HTTP APIs on Vert.x: JSON bodies and errors with blocking work off the event loop
 * ({@link JsonHttp}), the one server-wide budget of buffered request bytes that every route's body counts against
 * ({@link RequestBudget}), and trimmed per-connection write queues ({@link WriteQueues}). Uses no other package of ours.
 */
package dev.switchboard.http;
