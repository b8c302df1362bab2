/**
 * The agent contract as a pure state machine: {@link Engine#step} takes a {@link Session}, an {@link Input}
 * and the time, and returns a {@link Transition}: the new session and the {@link Effect}s to run. No I/O, no clock, no
 * threads; time arrives as {@code now} and waiting is an effect. One class per section of the contract's rules
 * ({@link Sends}, {@link Replies}, {@link Errors}, {@link Timers}, {@link Recovery} …). The engine imports only
 * {@code protocol} and {@code java.*} (EngineImportsTest holds it to that); the checker asks the same rules through
 * {@link Contract}.
 */
package dev.switchboard.bridge.engine;
