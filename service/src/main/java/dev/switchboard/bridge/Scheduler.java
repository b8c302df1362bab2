package dev.switchboard.bridge;

import io.vertx.core.Vertx;
import java.time.Clock;
import java.time.Duration;

/**
 * The driver's time: what "now" is and when a task runs later. The contract's timers (a settle delay of 1 s, a busy
 * notice after 2 min, a silence limit of 5 min, giving up after 15 min, a question unanswered for 1 h) and the idle
 * sweep are all set through it, so that a test can run them on a virtual clock it advances instead of waiting real
 * minutes. The clock and the timers come as one: a timer set for {@code d} is due when {@link #clock()} has moved on
 * by {@code d}, and the engine, stepped with the clock's instant, must find it due then.
 */
public interface Scheduler {

    /** The instant every step of the driver is taken at. */
    Clock clock();

    /** Runs {@code task} once, {@code delay} from now (at least a millisecond: the engine's deadlines are in ms). */
    Timer schedule(Duration delay, Runnable task);

    /** A task set to run later; cancelling one that ran already, or twice, does nothing. */
    interface Timer {
        void cancel();
    }

    /** Production: Vert.x timers, on the wall clock {@code clock}. */
    static Scheduler vertx(Vertx vertx, Clock clock) {
        return new VertxScheduler(vertx, clock);
    }

    /** Vert.x timers: their callbacks run on an event loop and must hand the work on to a lane, as the driver does. */
    record VertxScheduler(Vertx vertx, Clock clock) implements Scheduler {
        @Override
        public Timer schedule(Duration delay, Runnable task) {
            long id = vertx.setTimer(Math.max(1, delay.toMillis()), t -> task.run());
            return () -> vertx.cancelTimer(id);
        }
    }
}
