package dev.switchboard.client;

import static org.awaitility.Awaitility.await;

import dev.switchboard.protocol.CallFailure;
import dev.switchboard.protocol.model.StreamEvent;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/** Records a stream's callbacks, the contexts they ran on, and any callback after the terminal one. */
final class RecordingListener implements StreamListener {

    final List<StreamEvent> events = new CopyOnWriteArrayList<>();
    final List<Context> contexts = new CopyOnWriteArrayList<>();
    final AtomicInteger terminals = new AtomicInteger();
    final AtomicInteger afterTerminal = new AtomicInteger();
    volatile boolean ended;
    volatile CallFailure failure;
    volatile Boolean afterEvents;

    @Override
    public void onEvent(StreamEvent event) {
        seen();
        events.add(event);
    }

    @Override
    public void onEnd() {
        seen();
        terminals.incrementAndGet();
        ended = true;
    }

    @Override
    public void onFailure(CallFailure failure, boolean afterEvents) {
        seen();
        terminals.incrementAndGet();
        this.afterEvents = afterEvents;
        this.failure = failure;
    }

    private void seen() {
        contexts.add(Vertx.currentContext());
        if (terminals.get() > 0) {
            afterTerminal.incrementAndGet();
        }
    }

    void awaitEnd() {
        await().until(() -> ended || failure != null);
        if (failure != null) {
            throw new AssertionError("stream failed: " + failure);
        }
    }

    CallFailure awaitFailure() {
        await().until(() -> ended || failure != null);
        if (ended) {
            throw new AssertionError("stream ended normally after " + events.size() + " events");
        }
        return failure;
    }
}
