package dev.switchboard.kubernetes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.switchboard.config.BridgeSettings;
import dev.switchboard.config.ServerSpec;
import dev.switchboard.config.SwitchboardConfig;
import dev.switchboard.console.ResourceStatus;
import io.fabric8.kubernetes.api.model.GenericKubernetesResource;
import io.fabric8.kubernetes.api.model.Secret;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientException;
import io.fabric8.kubernetes.client.dsl.base.ResourceDefinitionContext;
import io.fabric8.kubernetes.client.informers.ResourceEventHandler;
import io.fabric8.kubernetes.client.informers.SharedIndexInformer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Watch mode: informers on the AgentBackend, Binding, SlackApp, Trigger and AccessPolicy resources ({@code switchboard.dev/v1})
 * and on the Secrets of one namespace. Every change (and every resync) reconciles the whole snapshot on one thread:
 * {@link Reconciler} validates it, the configuration in force goes to the app, and each resource's {@code Ready}
 * condition is written to its status subresource when it differs from what the resource carries.
 */
public final class KubernetesWatch implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(KubernetesWatch.class);
    private static final ObjectMapper JSON = new ObjectMapper();
    public static final String GROUP = "switchboard.dev";
    public static final String VERSION = "v1";
    /**
     * The label ({@code "true"}) by which an operator lets AgentBackends and Bindings send a Secret's value to their
     * agent ({@link SecretsSentToAgents}); Switchboard's own credentials never carry it.
     */
    public static final String USABLE_BY_BACKENDS_LABEL = "switchboard.dev/usable-by-backends";
    /** the kinds watched, with their plural (the resource name in the API's paths) */
    public static final Map<String, String> KINDS = orderedKinds();
    static final Path SERVICE_ACCOUNT_NAMESPACE = Path.of("/var/run/secrets/kubernetes.io/serviceaccount/namespace");

    private final KubernetesClient client;
    private final String namespace;
    private final Reconciler reconciler;
    private final Duration resync;
    private final Map<String, SharedIndexInformer<GenericKubernetesResource>> informers = new LinkedHashMap<>();
    private SharedIndexInformer<Secret> secrets;
    private final ScheduledExecutorService reconcileThread = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "kubernetes-reconcile");
        t.setDaemon(true);
        return t;
    });
    private final AtomicBoolean pending = new AtomicBoolean();
    private volatile Consumer<SwitchboardConfig> target;
    /**
     * The condition last written to each resource, with the version it was written over: while the informer still
     * shows that version, the write has not come back yet, and writing again would only repeat it.
     */
    private final Map<WatchedResource.Key, Written> written = new HashMap<>();
    /** The last reconcile's conditions, every resource's, for the console. */
    private volatile List<ResourceStatus> statuses = List.of();

    private record Written(Condition condition, String over) {}

    /** run once, after the first reconcile the app ran and whose statuses were written */
    private volatile Runnable synced;
    private volatile boolean closed;

    private static Map<String, String> orderedKinds() {
        Map<String, String> kinds = new LinkedHashMap<>();
        kinds.put("AgentBackend", "agentbackends");
        kinds.put("Binding", "bindings");
        kinds.put("SlackApp", "slackapps");
        kinds.put("Trigger", "triggers");
        kinds.put("AccessPolicy", "accesspolicies");
        return java.util.Collections.unmodifiableMap(kinds);
    }

    /**
     * @param namespace from {@code --namespace}; null: the pod's own (its service account's namespace file), else
     *        the client's default
     */
    public KubernetesWatch(KubernetesClient client, String namespace, ServerSpec server, BridgeSettings bridge,
            Duration resync) {
        this.client = client;
        this.namespace = namespace(namespace, SERVICE_ACCOUNT_NAMESPACE, client.getNamespace());
        this.reconciler = new Reconciler(server, bridge);
        this.resync = resync;
    }

    static String namespace(String flag, Path serviceAccountFile, String clientDefault) {
        if (flag != null && !flag.isBlank()) {
            return flag;
        }
        try {
            if (Files.isReadable(serviceAccountFile)) {
                String ns = Files.readString(serviceAccountFile).trim();
                if (!ns.isEmpty()) {
                    return ns;
                }
            }
        } catch (java.io.IOException e) {
            LOG.debug("cannot read {}: {}", serviceAccountFile, e.toString());
        }
        return clientDefault == null || clientDefault.isBlank() ? "default" : clientDefault;
    }

    public String namespace() {
        return namespace;
    }

    /**
     * Starts the informers and waits for their first list; then returns the configuration in force, which the
     * caller starts the app with ({@link #attach} then sends every change). Fails with a message naming the kind
     * when a list is refused (no CRD, no RBAC) or does not come within {@code timeout}.
     */
    public SwitchboardConfig firstSync(Duration timeout) {
        ResourceEventHandler<Object> onChange = new ResourceEventHandler<>() {
            @Override
            public void onAdd(Object obj) {
                schedule();
            }

            @Override
            public void onUpdate(Object oldObj, Object newObj) {
                schedule();
            }

            @Override
            public void onDelete(Object obj, boolean deletedFinalStateUnknown) {
                schedule();
            }
        };
        long resyncMillis = resync.toMillis();
        KINDS.forEach((kind, plural) -> informers.put(kind, client.genericKubernetesResources(context(kind, plural))
                .inNamespace(namespace).runnableInformer(resyncMillis)));
        secrets = client.secrets().inNamespace(namespace).runnableInformer(resyncMillis);
        List<java.util.concurrent.CompletableFuture<Void>> started = new ArrayList<>();
        informers.forEach((kind, informer) -> {
            informer.addEventHandler(onChange);
            started.add(informer.start().toCompletableFuture()
                    .exceptionally(e -> {
                        throw new IllegalStateException("cannot list " + plural(kind) + "." + GROUP + " in namespace "
                                + namespace + ": " + why(e, "is the CRD installed (deploy/crds)?"));
                    }));
        });
        secrets.addEventHandler(onChange);
        started.add(secrets.start().toCompletableFuture().exceptionally(e -> {
            throw new IllegalStateException("cannot list secrets in namespace " + namespace + ": " + why(e, null));
        }));
        try {
            java.util.concurrent.CompletableFuture.allOf(started.toArray(java.util.concurrent.CompletableFuture[]::new))
                    .get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (java.util.concurrent.TimeoutException e) {
            close();
            throw new IllegalStateException("the API server did not list the Switchboard resources of namespace "
                    + namespace + " within " + timeout.toSeconds() + " s");
        } catch (java.util.concurrent.ExecutionException e) {
            close();
            throw e.getCause() instanceof IllegalStateException i ? i : new IllegalStateException(rootMessage(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            close();
            throw new IllegalStateException("interrupted while waiting for the first sync");
        }
        try {
            // no status is written yet: nothing runs what it would say until the app has started
            return reconcileThread.submit(() -> reconcile(resources()).live()).get();
        } catch (Exception e) {
            close();
            throw new IllegalStateException("the first sync failed: " + rootMessage(e));
        }
    }

    /**
     * From now on every change is applied to {@code app}; reconciles once at once, so nothing between is lost, and
     * calls {@code synced} once that first reconcile is applied and its statuses are written.
     */
    public void attach(Consumer<SwitchboardConfig> app, Runnable synced) {
        this.target = app;
        this.synced = synced;
        schedule();
    }

    /** Every resource's Ready condition as the last reconcile decided it (the console shows them). */
    public List<ResourceStatus> statuses() {
        return statuses;
    }

    /** Runs a reconcile soon; changes arriving meanwhile are folded into it. */
    private void schedule() {
        if (closed || !pending.compareAndSet(false, true)) {
            return;
        }
        reconcileThread.schedule(() -> {
            pending.set(false);
            try {
                reconcileNow();
            } catch (RuntimeException e) {
                LOG.warn("kubernetes: reconcile failed, retried at the next change or resync: {}", e.toString());
            }
        }, 50, TimeUnit.MILLISECONDS);
    }

    /** On the reconcile thread: the app runs the outcome first, then the statuses say what it runs. */
    private void reconcileNow() {
        Consumer<SwitchboardConfig> app = target;
        if (app == null) {
            // before attach: the app is not running it yet. Not reconciled either: an informer's first events come
            // while the other kinds (and the Secrets) are still being listed, and the reconciler's first call fixes
            // which SlackApps run since start (a SlackApp seen before its Secret would say RestartRequired)
            return;
        }
        List<WatchedResource> resources = resources();
        Reconciler.Outcome outcome = reconcile(resources);
        app.accept(outcome.live());
        for (WatchedResource r : resources) {
            Condition c = outcome.conditions().get(r.key());
            Written last = written.get(r.key());
            boolean inFlight = last != null && last.condition().equals(c)
                    && java.util.Objects.equals(last.over(), r.resourceVersion());
            if (c != null && !c.equals(r.ready()) && !inFlight) {
                writeStatus(r, c);
            }
        }
        written.keySet().retainAll(resources.stream().map(WatchedResource::key).toList());
        statuses = resources.stream().filter(r -> outcome.conditions().get(r.key()) != null).map(r -> {
            Condition c = outcome.conditions().get(r.key());
            return new ResourceStatus(r.kind(), r.name(), c.ready() ? "True" : "False",
                    c.reason(), c.message(), c.observedGeneration());
        }).sorted(Comparator.comparing(ResourceStatus::kind)
                .thenComparing(ResourceStatus::name)).toList();
        Runnable first = synced;
        if (first != null) {
            synced = null;
            first.run();
        }
    }

    private List<WatchedResource> resources() {
        List<WatchedResource> resources = new ArrayList<>();
        informers.forEach((kind, informer) -> informer.getStore().list().forEach(r -> resources.add(watched(kind, r))));
        return resources;
    }

    /** With the Secrets as listed once: their values and their labels from the same moment. */
    private Reconciler.Outcome reconcile(List<WatchedResource> resources) {
        List<Secret> now = secrets.getStore().list();
        Map<String, Map<String, String>> values = new HashMap<>();
        java.util.Set<String> optedIn = new java.util.HashSet<>();
        for (Secret s : now) {
            values.put(s.getMetadata().getName(), values(s));
            if (SecretsSentToAgents.optedIn(s)) {
                optedIn.add(s.getMetadata().getName());
            }
        }
        return reconciler.reconcile(resources, values, optedIn);
    }

    private WatchedResource watched(String kind, GenericKubernetesResource r) {
        JsonNode body;
        try {
            body = JSON.readTree(client.getKubernetesSerialization().asJson(r));
        } catch (java.io.IOException e) {
            throw new IllegalStateException("cannot read " + kind + " " + r.getMetadata().getName(), e);
        }
        Long generation = r.getMetadata().getGeneration();
        return new WatchedResource(kind, r.getMetadata().getName(), generation == null ? 0 : generation,
                r.getMetadata().getResourceVersion(), body, ready(body.path("status")));
    }

    /** The Ready condition a resource carries, or null. */
    private static Condition ready(JsonNode status) {
        for (JsonNode c : status.path("conditions")) {
            if ("Ready".equals(c.path("type").asText())) {
                return new Condition("True".equals(c.path("status").asText()), c.path("reason").asText(""),
                        c.path("message").asText(""), c.path("observedGeneration").asLong(0));
            }
        }
        return null;
    }

    /**
     * Writes the Ready condition through the status subresource, only when it changed: replicas that compute the
     * same condition leave each other's writes alone. A conflict (the resource changed meanwhile) is left to the
     * reconcile its change triggers.
     */
    private void writeStatus(WatchedResource r, Condition c) {
        try {
            GenericKubernetesResource current = client.genericKubernetesResources(context(r.kind(), KINDS.get(r.kind())))
                    .inNamespace(namespace).withName(r.name()).get();
            if (current == null) {
                return; // deleted meanwhile
            }
            boolean transition = r.ready() == null || r.ready().ready() != c.ready();
            String lastTransition = transition ? Instant.now().truncatedTo(ChronoUnit.SECONDS).toString()
                    : existingTransition(r.body().path("status"));
            Map<String, Object> condition = new LinkedHashMap<>();
            condition.put("type", "Ready");
            condition.put("status", c.ready() ? "True" : "False");
            condition.put("reason", c.reason());
            condition.put("message", c.message());
            condition.put("observedGeneration", c.observedGeneration());
            condition.put("lastTransitionTime", lastTransition);
            Map<String, Object> status = new LinkedHashMap<>();
            status.put("observedGeneration", c.observedGeneration());
            status.put("conditions", List.of(condition));
            current.setAdditionalProperty("status", status);
            client.genericKubernetesResources(context(r.kind(), KINDS.get(r.kind()))).inNamespace(namespace)
                    .resource(current).updateStatus();
            written.put(r.key(), new Written(c, r.resourceVersion()));
            if (!c.ready()) {
                LOG.warn("kubernetes: {} {} is not Ready: {}: {}", r.kind(), r.name(), c.reason(), c.message());
            } else {
                LOG.info("kubernetes: {} {} is Ready (generation {})", r.kind(), r.name(), c.observedGeneration());
            }
        } catch (KubernetesClientException e) {
            if (closed) {
                return; // stopping: the next process writes it
            }
            LOG.warn("kubernetes: cannot write the status of {} {}: {}", r.kind(), r.name(),
                    e.getCode() == 409 ? "it changed meanwhile (written at the next reconcile)" : e.getMessage());
            if (e.getCode() == 409) {
                schedule();
            }
        }
    }

    private static String existingTransition(JsonNode status) {
        for (JsonNode c : status.path("conditions")) {
            if ("Ready".equals(c.path("type").asText()) && c.hasNonNull("lastTransitionTime")) {
                return c.get("lastTransitionTime").asText();
            }
        }
        return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    }

    /** A Secret's keys and values, decoded; values are never logged. */
    private static Map<String, String> values(Secret s) {
        Map<String, String> out = new HashMap<>();
        if (s.getData() != null) {
            s.getData().forEach((k, v) -> {
                try {
                    out.put(k, new String(Base64.getDecoder().decode(v == null ? "" : v.trim()), StandardCharsets.UTF_8));
                } catch (IllegalArgumentException e) {
                    LOG.warn("kubernetes: Secret {} key {} is not valid base64; ignored", s.getMetadata().getName(), k);
                }
            });
        }
        if (s.getStringData() != null) {
            out.putAll(s.getStringData());
        }
        return Map.copyOf(out);
    }

    static ResourceDefinitionContext context(String kind, String plural) {
        return new ResourceDefinitionContext.Builder().withGroup(GROUP).withVersion(VERSION).withKind(kind)
                .withPlural(plural).withNamespaced(true).build();
    }

    private static String plural(String kind) {
        return KINDS.get(kind);
    }

    /** What a person can do about a failed list: install the CRD, grant the RBAC, or reach the API server. */
    private String why(Throwable e, String whenNotFound) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof KubernetesClientException k && k.getCode() > 0) {
                if (k.getCode() == 404 && whenNotFound != null) {
                    return "the API server does not know them (HTTP 404): " + whenNotFound;
                }
                if (k.getCode() == 401 || k.getCode() == 403) {
                    return "refused (HTTP " + k.getCode() + "): the service account needs get, list and watch on them "
                            + "(see the README's RBAC)";
                }
                return "HTTP " + k.getCode() + ": " + k.getMessage();
            }
        }
        return "cannot reach the API server at " + client.getMasterUrl() + " (" + rootMessage(e) + ")";
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null && t.getCause() != t) {
            t = t.getCause();
        }
        return t.getMessage() == null ? t.toString() : t.getMessage();
    }

    @Override
    public void close() {
        closed = true;
        informers.values().forEach(SharedIndexInformer::close);
        if (secrets != null) {
            secrets.close();
        }
        reconcileThread.shutdownNow();
    }
}
