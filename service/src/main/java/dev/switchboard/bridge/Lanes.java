package dev.switchboard.bridge;

import io.vertx.core.Future;
import io.vertx.core.Promise;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * A few single-threaded executors: every piece of work for one key (a chat thread's id) runs on the same lane, in
 * order, so a session is strictly serial without locks.
 */
final class Lanes {

    private final ThreadPoolExecutor[] lanes;

    Lanes(int count) {
        lanes = new ThreadPoolExecutor[count];
        for (int i = 0; i < count; i++) {
            int n = i;
            // a plain single-thread pool, so that its queue's depth can be a gauge
            lanes[i] = new ThreadPoolExecutor(1, 1, 0L, TimeUnit.MILLISECONDS, new LinkedBlockingQueue<>(), r -> {
                Thread t = new Thread(r, "bridge-lane-" + n);
                t.setDaemon(true);
                return t;
            });
        }
    }

    /** For the queue depth gauges. */
    ThreadPoolExecutor[] executors() {
        return lanes;
    }

    /** Runs {@code work} on {@code key}'s lane; fails when the lanes are shut down. */
    <T> Future<T> run(String key, Supplier<T> work) {
        Promise<T> promise = Promise.promise();
        ThreadPoolExecutor lane = lanes[Math.floorMod(key.hashCode(), lanes.length)];
        try {
            lane.execute(() -> {
                try {
                    promise.complete(work.get());
                } catch (RuntimeException e) {
                    promise.fail(e);
                }
            });
        } catch (RejectedExecutionException e) {
            promise.fail(new IllegalStateException("the bridge is shutting down"));
        }
        return promise.future();
    }

    /** Lets the queued work finish (up to 5 s a lane), taking no more. */
    void shutdown() {
        for (ThreadPoolExecutor lane : lanes) {
            lane.shutdown();
        }
        for (ThreadPoolExecutor lane : lanes) {
            try {
                lane.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Stops at once, as a killed process would. */
    void shutdownNow() {
        for (ThreadPoolExecutor lane : lanes) {
            lane.shutdownNow();
        }
    }
}
