package dev.switchboard.cli;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.config.ConfigException;
import dev.switchboard.config.SwitchboardConfig;
import dev.switchboard.kubernetes.KubernetesWatch;
import dev.switchboard.ops.Readiness;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.vertx.core.Vertx;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code serve --kubernetes}: the Server resource from the file (a mounted ConfigMap; or the defaults), everything
 * else from the cluster ({@link KubernetesWatch}), kept in force while the service runs. Here, beside the other
 * entry points, as it starts the app.
 */
public final class WatchMode {

    /** The /readyz condition met once the first sync is applied to the running app. */
    public static final String FIRST_SYNC = "kubernetes first sync";
    static final Duration RESYNC = Duration.ofMinutes(10);

    /**
     * The app and the watch that feeds it; {@link #follow} starts applying the cluster's changes (until then
     * /readyz says "kubernetes first sync"); close both with {@link #close}.
     */
    public record Running(SwitchboardApp app, KubernetesWatch watch, KubernetesClient client,
            Readiness.Condition firstSync, SwitchboardConfig file) {

        /** Applies the first reconcile and every change after it; /readyz turns ready once the first is applied. */
        public Running follow() {
            app.resourceStatuses(watch::statuses); // the console lists them
            watch.attach(live -> app.apply(withFileSecrets(live, file)), firstSync::met);
            return this;
        }

        public io.vertx.core.Future<Void> close() {
            watch.close();
            return app.close().eventually(() -> {
                client.close();
                return io.vertx.core.Future.succeededFuture();
            });
        }
    }

    private WatchMode() {}

    /**
     * In watch mode the file may hold the Server resource and the Secrets it names (a PostgreSQL password), nothing
     * else: two sources of agents would disagree, and which one wins would be a guess. Refused with the reason.
     */
    public static void checkFile(SwitchboardConfig file, String source) {
        List<String> extra = new java.util.ArrayList<>();
        file.backends().forEach(b -> extra.add("AgentBackend " + b.name()));
        file.bindings().forEach(b -> extra.add("Binding " + b.name()));
        file.slackApps().forEach(a -> extra.add("SlackApp " + a.name()));
        file.triggers().forEach(t -> extra.add("Trigger " + t.name()));
        file.policies().forEach(p -> extra.add("AccessPolicy " + p.name()));
        if (!extra.isEmpty()) {
            throw new ConfigException(source + ": in watch mode (--kubernetes) the file holds only the Server resource "
                    + "(and the Secrets it names); these belong in the cluster (kubectl apply them): "
                    + String.join(", ", extra));
        }
    }

    /**
     * Lists the resources (blocking, up to {@code syncTimeout}) and starts the app with what is valid among them
     * (SlackApps and Triggers included: they are built once, at start). /readyz says not ready until
     * {@link Running#follow} has applied the first reconcile and written the statuses.
     */
    public static Running start(Vertx vertx, SwitchboardConfig file, KubernetesClient client, String namespace,
            Duration syncTimeout) {
        KubernetesWatch watch = new KubernetesWatch(client, namespace, file.server(), file.bridge(), RESYNC);
        SwitchboardConfig first = withFileSecrets(watch.firstSync(syncTimeout), file);
        Readiness readiness = new Readiness();
        Readiness.Condition firstSync = readiness.pending(FIRST_SYNC);
        SwitchboardApp app;
        try {
            app = SwitchboardApp.start(vertx, first, readiness).await();
        } catch (RuntimeException e) {
            watch.close();
            throw e;
        }
        return new Running(app, watch, client, firstSync, file);
    }

    private static SwitchboardConfig withFileSecrets(SwitchboardConfig live, SwitchboardConfig file) {
        Map<String, Map<String, String>> secrets = new HashMap<>(file.secrets());
        secrets.putAll(live.secrets());
        return new SwitchboardConfig(file.server(), live.backends(), live.bindings(), Map.copyOf(secrets), file.bridge(),
                live.slackApps(), live.triggers(), live.policies());
    }
}
