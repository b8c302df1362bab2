package dev.switchboard.kubernetes;

import dev.switchboard.bridge.engine.Platform;
import dev.switchboard.policy.AccessPolicySpec;
import dev.switchboard.config.AgentBackendSpec;
import dev.switchboard.config.BindingSpec;
import dev.switchboard.config.BridgeSettings;
import dev.switchboard.config.ConfigDocument;
import dev.switchboard.config.ConfigException;
import dev.switchboard.config.ConfigLoader;
import dev.switchboard.config.ServerSpec;
import dev.switchboard.config.SlackAppSpec;
import dev.switchboard.config.SwitchboardConfig;
import dev.switchboard.config.TriggerSpec;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Turns what the API server holds into the configuration in force and a Ready condition per resource, with the
 * file loader's own validation ({@link ConfigLoader#document} per resource, {@link ConfigLoader#crossReferences}
 * on the snapshot). Not thread-safe: the watch calls it from its one reconcile thread.
 *
 * <p>Decisions: a resource whose new version fails validation keeps its last valid version in force, and its
 * status says so (a typo in a kubectl apply does not take an agent away); one that was never valid is not in force.
 * A resource whose references do not resolve is not in force (what it points at is not there), and what points at
 * it is checked again without it. SlackApps are read at the first sync only: their Slack connections are built once
 * at start; a later change says RestartRequired. Bindings of the slack platform are live like the others, on the
 * SlackApps running since start: one naming a SlackApp that is not running (added or renamed after start) says
 * RestartRequired, and the version it replaced, if any, stays in force. Triggers are live, on the Bindings in force.
 * An AgentBackend or Binding that would send a Secret not labelled for it ({@link SecretsSentToAgents}) is not in
 * force, whichever of its versions it is, and says SecretNotUsable. AccessPolicies are live; one not in force
 * grants nothing but still switches the gateway to "refused unless granted" (it fails closed).
 */
final class Reconciler {

    private static final Pattern MISSING = Pattern.compile("no (AgentBackend|Binding|SlackApp) named '([^']+)'");

    /** the configuration in force, and each resource's condition */
    record Outcome(SwitchboardConfig live, Map<WatchedResource.Key, Condition> conditions) {}

    private record Good(long generation, ConfigDocument document) {}

    private final ServerSpec server;
    private final BridgeSettings bridge;
    private final Map<WatchedResource.Key, Good> lastGood = new HashMap<>();
    /** SlackApps as they were at the first sync, with the secrets of then */
    private SwitchboardConfig started;
    /** the slack Bindings in force, by name: what stays when a new version names a SlackApp not running */
    private final Map<String, BindingSpec> slackInForce = new HashMap<>();

    Reconciler(ServerSpec server, BridgeSettings bridge) {
        this.server = server;
        this.bridge = bridge;
    }

    /**
     * @param secrets the namespace's Secrets, by name: their keys and values
     * @param optedIn the names of those carrying the label that lets AgentBackends and Bindings send them
     *        ({@link SecretsSentToAgents})
     */
    Outcome reconcile(List<WatchedResource> resources, Map<String, Map<String, String>> secrets, Set<String> optedIn) {
        Map<WatchedResource.Key, Condition> conditions = new LinkedHashMap<>();
        Map<WatchedResource.Key, ConfigDocument> effective = new LinkedHashMap<>();
        Map<WatchedResource.Key, WatchedResource> byKey = new HashMap<>();
        List<WatchedResource> sorted = new ArrayList<>(resources);
        // name order: which of two Bindings claiming one channel wins does not depend on the order of events
        sorted.sort(Comparator.comparing(WatchedResource::kind).thenComparing(WatchedResource::name));
        for (WatchedResource r : sorted) {
            byKey.put(r.key(), r);
            try {
                ConfigDocument doc = ConfigLoader.document(r.body());
                lastGood.put(r.key(), new Good(r.generation(), doc));
                effective.put(r.key(), doc);
            } catch (ConfigException e) {
                Good good = lastGood.get(r.key());
                if (good != null) {
                    effective.put(r.key(), good.document());
                    conditions.put(r.key(), Condition.notReady("InvalidSpec", e.getMessage()
                            + " (generation " + r.generation() + " is not applied; generation " + good.generation()
                            + ", the last valid one, stays in force)", r.generation()));
                } else {
                    conditions.put(r.key(), Condition.notReady("InvalidSpec", e.getMessage(), r.generation()));
                }
            }
        }
        lastGood.keySet().retainAll(byKey.keySet());
        // a token sent to the url its resource's author wrote: only from a Secret the operator opted in (M5). Before
        // the references, so what points at a resource taken out here is checked again without it
        for (WatchedResource.Key key : List.copyOf(effective.keySet())) {
            String problem = SecretsSentToAgents.problem(effective.get(key), secrets.keySet(), optedIn);
            if (problem != null) {
                effective.remove(key);
                // over a bad change's InvalidSpec too: its "the last valid one stays in force" is no longer true
                conditions.put(key, Condition.notReady("SecretNotUsable", problem, byKey.get(key).generation()));
            }
        }
        // references: drop what does not resolve, then check again what pointed at it
        while (true) {
            List<ConfigDocument.Problem> problems = ConfigLoader.crossReferences(snapshot(effective, secrets)).stream()
                    .filter(p -> !p.kind().equals("Server")) // the file's Server was checked with the file
                    .toList();
            if (problems.isEmpty()) {
                break;
            }
            for (ConfigDocument.Problem p : problems) {
                WatchedResource.Key key = new WatchedResource.Key(p.kind(), p.name());
                if (effective.remove(key) != null) {
                    WatchedResource r = byKey.get(key);
                    conditions.putIfAbsent(key, Condition.notReady(reason(p.detail()), explain(p.detail(), byKey),
                            r.generation()));
                }
            }
        }
        SwitchboardConfig now = snapshot(effective, secrets);
        if (started == null) {
            started = now;
        }
        Map<String, String> notRunning = slackBindings(now, optedIn);
        java.util.Set<String> bindingsInForce = new java.util.HashSet<>(slackInForce.keySet());
        now.bindings().stream().filter(b -> b.platform() != Platform.SLACK).forEach(b -> bindingsInForce.add(b.name()));
        List<TriggerSpec> triggers = new ArrayList<>();
        for (TriggerSpec t : now.triggers()) {
            if (bindingsInForce.contains(t.bindingRef())) {
                triggers.add(t);
            } else {
                // its Binding is there but not running (a slack one on a SlackApp created after start)
                WatchedResource.Key key = new WatchedResource.Key("Trigger", t.name());
                conditions.putIfAbsent(key, Condition.notReady("BindingNotFound", explain(
                        "spec.bindingRef.name: no Binding named '" + t.bindingRef() + "'", byKey),
                        byKey.get(key).generation()));
            }
        }
        for (WatchedResource r : sorted) {
            if (conditions.containsKey(r.key())) {
                continue;
            }
            ConfigDocument doc = effective.get(r.key());
            if (doc instanceof ConfigDocument.BindingDoc && notRunning.containsKey(r.name())) {
                conditions.put(r.key(), Condition.notReady("RestartRequired", notRunning.get(r.name()), r.generation()));
            } else if (readOnceAtStart(doc) && !runningSinceStart(doc, now)) {
                conditions.put(r.key(), Condition.notReady("RestartRequired", r.kind() + "s"
                        + " are read once, at start, with their Secrets: this version is not running; restart "
                        + "Switchboard to apply it (kubectl rollout restart)", r.generation()));
            } else {
                conditions.put(r.key(), Condition.applied(r.generation()));
            }
        }
        return new Outcome(live(now, secrets, triggers, policiesNotInForce(sorted, now)), conditions);
    }

    /**
     * Decides which slack Bindings are in force ({@link #slackInForce}): those naming a SlackApp running since start.
     * Returns, by name, why each of the others is not (its status message).
     */
    private Map<String, String> slackBindings(SwitchboardConfig now, Set<String> optedIn) {
        java.util.Set<String> running = new java.util.HashSet<>();
        started.slackApps().forEach(a -> running.add(a.name()));
        Map<String, BindingSpec> next = new LinkedHashMap<>();
        Map<String, String> notRunning = new LinkedHashMap<>();
        for (BindingSpec b : now.bindings()) {
            if (b.platform() != Platform.SLACK) {
                continue;
            }
            if (running.contains(b.app())) {
                next.put(b.name(), b);
                continue;
            }
            BindingSpec before = slackInForce.get(b.name());
            // the version in force stays while what it needs is still there
            boolean keep = before != null && running.contains(before.app())
                    && now.backends().stream().anyMatch(x -> x.name().equals(before.backendRef()))
                    && (before.tokenSecretRef() == null || now.secret(before.tokenSecretRef()).isPresent()
                            && SecretsSentToAgents.usable(before.tokenSecretRef(), now.secrets().keySet(), optedIn));
            if (keep) {
                next.put(b.name(), before);
            }
            notRunning.put(b.name(), "SlackApp '" + b.app() + "' is not running: SlackApps are read once, at start, "
                    + "with their Secrets; restart Switchboard to apply this version (kubectl rollout restart)"
                    + (keep ? "; the version naming SlackApp '" + before.app() + "' stays in force" : ""));
        }
        slackInForce.clear();
        slackInForce.putAll(next);
        return notRunning;
    }

    /**
     * The configuration the app runs: agents, Bindings (slack ones on running apps) and Triggers (on those) as now;
     * SlackApps as at start.
     */
    private SwitchboardConfig live(SwitchboardConfig now, Map<String, Map<String, String>> secrets,
            List<TriggerSpec> triggers, List<AccessPolicySpec> grantingNothing) {
        List<BindingSpec> bindings = new ArrayList<>();
        now.bindings().stream().filter(b -> b.platform() != Platform.SLACK).forEach(bindings::add);
        bindings.addAll(slackInForce.values());
        Map<String, Map<String, String>> allSecrets = new HashMap<>(started.secrets());
        allSecrets.putAll(secrets);
        List<AccessPolicySpec> policies = new ArrayList<>(now.policies());
        policies.addAll(grantingNothing);
        return new SwitchboardConfig(server, now.backends(), List.copyOf(bindings), Map.copyOf(allSecrets), bridge,
                started.slackApps(), List.copyOf(triggers), List.copyOf(policies));
    }

    /**
     * An AccessPolicy that is in the cluster but not in force (never valid, or a reference that does not resolve)
     * grants nothing, but it still counts as a policy: the gateway fails closed. Were it simply left out, a broken
     * sole policy would turn "only these callers" into "every caller".
     */
    private static List<AccessPolicySpec> policiesNotInForce(List<WatchedResource> all, SwitchboardConfig now) {
        java.util.Set<String> inForce = new java.util.HashSet<>();
        now.policies().forEach(p -> inForce.add(p.name()));
        List<AccessPolicySpec> out = new ArrayList<>();
        for (WatchedResource r : all) {
            if (r.kind().equals("AccessPolicy") && !inForce.contains(r.name())) {
                out.add(AccessPolicySpec.grantsNothing(r.name()));
            }
        }
        return out;
    }

    private static boolean readOnceAtStart(ConfigDocument doc) {
        return doc instanceof ConfigDocument.SlackApp;
    }

    /** The same spec as at start, and the same values in the Secrets it names (a rotated token needs a restart too). */
    private boolean runningSinceStart(ConfigDocument doc, SwitchboardConfig now) {
        if (doc instanceof ConfigDocument.SlackApp a) {
            return started.slackApps().contains(a.spec())
                    && sameSecrets(now, a.spec().botToken(), a.spec().signingSecret(), a.spec().appToken());
        }
        return true;
    }

    private boolean sameSecrets(SwitchboardConfig now, dev.switchboard.config.SecretRef... refs) {
        for (dev.switchboard.config.SecretRef ref : refs) {
            if (ref != null && !started.secret(ref).equals(now.secret(ref))) {
                return false;
            }
        }
        return true;
    }

    private SwitchboardConfig snapshot(Map<WatchedResource.Key, ConfigDocument> docs,
            Map<String, Map<String, String>> secrets) {
        List<AgentBackendSpec> backends = new ArrayList<>();
        List<BindingSpec> bindings = new ArrayList<>();
        List<SlackAppSpec> apps = new ArrayList<>();
        List<TriggerSpec> triggers = new ArrayList<>();
        List<AccessPolicySpec> policies = new ArrayList<>();
        for (ConfigDocument d : docs.values()) {
            if (d instanceof ConfigDocument.Backend b) {
                backends.add(b.spec());
            } else if (d instanceof ConfigDocument.BindingDoc b) {
                bindings.add(b.spec());
            } else if (d instanceof ConfigDocument.SlackApp a) {
                apps.add(a.spec());
            } else if (d instanceof ConfigDocument.Trigger t) {
                triggers.add(t.spec());
            } else if (d instanceof ConfigDocument.AccessPolicy p) {
                policies.add(p.spec());
            }
        }
        return new SwitchboardConfig(server, List.copyOf(backends), List.copyOf(bindings), Map.copyOf(secrets), bridge,
                List.copyOf(apps), List.copyOf(triggers), List.copyOf(policies));
    }

    private static String reason(String detail) {
        if (detail.contains("no Secret named") || detail.contains("' has no key '")) {
            return "SecretNotFound";
        }
        if (detail.contains("no AgentBackend named")) {
            return "BackendNotFound";
        }
        if (detail.contains("no Binding named")) {
            return "BindingNotFound";
        }
        if (detail.contains("no SlackApp named")) {
            return "SlackAppNotFound";
        }
        return "InvalidReference";
    }

    /** "no AgentBackend named 'x'" when x exists but is not in force says so: the fix is in x's status. */
    private static String explain(String detail, Map<WatchedResource.Key, WatchedResource> present) {
        Matcher m = MISSING.matcher(detail);
        if (m.find() && present.containsKey(new WatchedResource.Key(m.group(1), m.group(2)))) {
            return detail + " that is in force (" + m.group(1) + " '" + m.group(2)
                    + "' exists but is not Ready: see its status)";
        }
        return detail;
    }
}
