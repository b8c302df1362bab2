package dev.switchboard.check;

import dev.switchboard.client.StreamHandle;
import dev.switchboard.client.StreamListener;
import dev.switchboard.protocol.CallFailure;
import dev.switchboard.protocol.model.StreamEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Function;

/**
 * One streaming call, watched from a plain thread: the events with when they came, how the stream ended, and the
 * longest silence. The checker cuts a stream that is silent for its idle limit or runs past its turn limit, so waiting
 * on one is always bounded.
 */
final class StreamProbe implements StreamListener {

    /** An event and how long after the call was made it arrived. */
    record Arrival(StreamEvent event, Duration after) {}

    /** How the stream ended. */
    sealed interface Ending {
        /** The agent closed it normally. */
        record Ended() implements Ending {}

        record Failed(CallFailure failure, boolean afterEvents) implements Ending {}

        /** The checker cut it: silent for {@code silent}, or still open at the turn limit ({@code idle} false). */
        record Cut(boolean idle, Duration silent) implements Ending {}
    }

    private final long startedAt = System.nanoTime();
    private final List<Arrival> arrivals = new ArrayList<>();
    private final CompletableFuture<Ending> ending = new CompletableFuture<>();
    private final CompletableFuture<StreamEvent> first = new CompletableFuture<>();
    private volatile long lastAt = startedAt;
    private volatile Duration longestGap = Duration.ZERO;
    private StreamHandle handle;

    static StreamProbe open(Function<StreamListener, StreamHandle> call) {
        StreamProbe probe = new StreamProbe();
        StreamHandle h = call.apply(probe);
        synchronized (probe) {
            probe.handle = h;
        }
        return probe;
    }

    @Override
    public void onEvent(StreamEvent event) {
        long now = System.nanoTime();
        synchronized (this) {
            Duration gap = Duration.ofNanos(now - lastAt);
            if (gap.compareTo(longestGap) > 0) {
                longestGap = gap;
            }
            lastAt = now;
            arrivals.add(new Arrival(event, Duration.ofNanos(now - startedAt)));
        }
        first.complete(event);
    }

    private synchronized void closed() {
        Duration gap = Duration.ofNanos(System.nanoTime() - lastAt);
        if (gap.compareTo(longestGap) > 0) {
            longestGap = gap;
        }
    }

    @Override
    public void onEnd() {
        closed();
        ending.complete(new Ending.Ended());
        first.complete(null);
    }

    @Override
    public void onFailure(CallFailure failure, boolean afterEvents) {
        closed();
        ending.complete(new Ending.Failed(failure, afterEvents));
        first.complete(null);
    }

    /** The first event, or null when the stream ended or failed without one; waits at most {@code limit}. */
    StreamEvent awaitFirst(Duration limit) {
        try {
            return first.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause());
        }
    }

    /**
     * Waits for the stream to end; cuts it after {@code idle} without an event (the wait for the response headers is
     * the client's, so the first event gets {@code idle} plus that) or when {@code limit} has passed since it opened.
     */
    Ending await(Duration headers, Duration idle, Duration limit) {
        long deadline = startedAt + limit.toNanos();
        while (true) {
            long now = System.nanoTime();
            long idleDeadline = lastAt + idle.toNanos() + (arrivalsCount() == 0 ? headers.toNanos() : 0);
            long wakeAt = Math.min(deadline, idleDeadline);
            if (now >= wakeAt) {
                boolean isIdle = idleDeadline <= deadline;
                Duration silent = Duration.ofNanos(now - lastAt);
                cut();
                closed(); // the silence that made the checker cut counts as a gap
                Ending cut = new Ending.Cut(isIdle, silent);
                // a callback that raced the cut wins: it is what the agent did
                return ending.complete(cut) ? cut : ending.join();
            }
            try {
                return ending.get(Math.max(1, TimeUnit.NANOSECONDS.toMillis(wakeAt - now)), TimeUnit.MILLISECONDS);
            } catch (TimeoutException e) {
                // check the deadlines again
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                cut();
                return new Ending.Cut(false, Duration.ofNanos(System.nanoTime() - lastAt));
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause());
            }
        }
    }

    /** Closes the call (no callback follows). */
    synchronized void cut() {
        if (handle != null) {
            handle.close();
        }
    }

    synchronized List<Arrival> arrivals() {
        return List.copyOf(arrivals);
    }

    synchronized List<StreamEvent> events() {
        return arrivals.stream().map(Arrival::event).toList();
    }

    private synchronized int arrivalsCount() {
        return arrivals.size();
    }

    /** The longest time between the call and its first event, or between two events. */
    Duration longestGap() {
        return longestGap;
    }

    /** From the call to its end (or to now, while it is open). */
    Duration lasted() {
        return Duration.ofNanos(System.nanoTime() - startedAt);
    }
}
