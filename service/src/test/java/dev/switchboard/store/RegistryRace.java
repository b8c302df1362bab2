package dev.switchboard.store;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.registry.AgentOrigin;
import dev.switchboard.registry.AgentRegistry;
import dev.switchboard.registry.RegisteredAgent;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/**
 * The registry's write race without HTTP in between, so that the writes really overlap: in each round eight threads
 * released at once register, heartbeat, deregister and expire one id on a registry over {@code store}; after each
 * round the store and the registry's memory must agree about that id.
 */
public final class RegistryRace {

    private static final int THREADS = 8;

    private RegistryRace() {}

    public static void run(SqlRegistrationStore store, int rounds) throws Exception {
        AgentRegistry registry = new AgentRegistry(store, Duration.ofMillis(1), 1000);
        ExecutorService pool = Executors.newFixedThreadPool(THREADS);
        try {
            for (int round = 0; round < rounds; round++) {
                String id = "race-" + round;
                registry.register(agent(id, Instant.now()), Instant.now());
                CyclicBarrier start = new CyclicBarrier(THREADS);
                List<Future<?>> work = new ArrayList<>();
                for (int t = 0; t < THREADS; t++) {
                    int kind = (t + round) % 4;
                    work.add(pool.submit(() -> {
                        start.await(30, TimeUnit.SECONDS);
                        Instant now = Instant.now();
                        switch (kind) {
                            case 0 -> registry.register(agent(id, now), now);
                            case 1 -> registry.deregister(id);
                            case 2 -> registry.heartbeat(id, now);
                            default -> registry.expire(now.plusSeconds(1));
                        }
                        return null;
                    }));
                }
                for (Future<?> f : work) {
                    f.get(60, TimeUnit.SECONDS);
                }
                boolean inMemory = registry.find(id).isPresent();
                boolean stored = store.loadAll().stream().anyMatch(a -> a.id().equals(id));
                assertThat(stored).as("round " + round + ": stored vs in memory (" + inMemory + ")").isEqualTo(inMemory);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    private static RegisteredAgent agent(String id, Instant now) {
        return new RegisteredAgent(id, "n", "http://127.0.0.1:1/", "", "", List.of(), List.of(), List.of(), List.of(),
                null, null, AgentOrigin.DYNAMIC, now, now);
    }
}
