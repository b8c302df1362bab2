package dev.switchboard.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.auth.Caller;
import dev.switchboard.policy.AccessPolicySpec.Subject;
import dev.switchboard.protocol.model.AgentSkill;
import dev.switchboard.registry.AgentLimits;
import dev.switchboard.registry.AgentOrigin;
import dev.switchboard.registry.RegisteredAgent;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The grants as a pure decision over Caller values: subjects, agents by name, labels and tags, methods. */
class GrantsTest {

    private static final Caller CI = Caller.apiKey("ci-bot");
    private static final Caller OPS = Caller.apiKey("ops");

    @Test
    void claimsMatchAnyValueAndAScopeSplitOnSpaces() {
        Map<String, List<String>> claims = Map.of("groups", List.of("dev", "sre"), "scope", List.of("agents:read agents:call"));
        assertThat(ClaimMatch.matches(claims, "groups", List.of("sre"))).isTrue();
        assertThat(ClaimMatch.matches(claims, "groups", List.of("ops", "admins"))).isFalse();
        assertThat(ClaimMatch.matches(claims, "scope", List.of("agents:call"))).isTrue();
        assertThat(ClaimMatch.matches(claims, "scope", List.of("agents"))).as("no prefix match").isFalse();
        assertThat(ClaimMatch.matches(claims, "roles", List.of("sre"))).as("a claim the caller lacks").isFalse();
        assertThat(ClaimMatch.matches(claims, "groups", List.of("SRE"))).as("case matters").isFalse();
        assertThat(ClaimMatch.matches(Map.of(), "groups", List.of("sre"))).isFalse();
    }

    @Test
    void aMethodNameOfEitherVersionCoversItsEquivalentAndStarCoversAll() {
        MethodNames send = MethodNames.of(List.of("message/send"));
        assertThat(send.covers("message/send")).isTrue();
        assertThat(send.covers("SendMessage")).isTrue();
        assertThat(send.covers("tasks/cancel")).isFalse();
        assertThat(send.covers("CancelTask")).isFalse();
        assertThat(MethodNames.of(List.of("CancelTask")).covers("tasks/cancel")).isTrue();
        assertThat(MethodNames.of(List.of("acme/custom")).covers("acme/custom")).isTrue();
        assertThat(MethodNames.of(List.of("acme/custom")).covers("message/send")).isFalse();
        assertThat(MethodNames.of(List.of("*")).covers("anything/at-all")).isTrue();
    }

    @Test
    void noPolicyAllowsEverything() {
        Grants grants = Grants.of(List.of(), Map.of());
        assertThat(grants.open()).isTrue();
        assertThat(grants.call(CI, agent("echo"), "tasks/cancel").allowed()).isTrue();
    }

    @Test
    void withAnyPolicyWhatNoneGrantsIsRefusedNamingTheMissingGrant() {
        Grants grants = Grants.of(List.of(policy("ci", List.of(new Subject.ApiKey("ci-bot")), List.of("echo"), Map.of(),
                List.of(), List.of("message/send"))), Map.of());
        Grants.Decision ok = grants.call(CI, agent("echo"), "SendMessage");
        assertThat(ok.allowed()).isTrue();
        assertThat(ok.policy()).isEqualTo("ci");
        Grants.Decision method = grants.call(CI, agent("echo"), "tasks/cancel");
        assertThat(method.allowed()).isFalse();
        assertThat(method.refusal()).contains("caller ci-bot has no grant for method tasks/cancel on agent echo");
        assertThat(grants.agent(CI, agent("other")).refusal()).contains("caller ci-bot has no grant for agent other");
        assertThat(grants.mayCall(OPS, agent("echo"))).isFalse();
        assertThat(grants.mayCall(Caller.address("127.0.0.1"), agent("echo"))).as("an address is no key").isFalse();
    }

    @Test
    void agentsByLabelsOfTheirBackendAndBySkillTags() {
        Grants grants = Grants.of(List.of(
                policy("by-label", List.of(new Subject.ApiKey("ci-bot")), List.of(), Map.of("team", "sre"), List.of(),
                        List.of("*")),
                policy("by-tag", List.of(new Subject.ApiKey("ops")), List.of(), Map.of(), List.of("k8s"), List.of("*"))),
                Map.of("triage", Map.of("team", "sre", "tier", "1")));
        assertThat(grants.mayCall(CI, agent("triage"))).isTrue();
        assertThat(grants.mayCall(CI, agent("echo"))).as("no labels").isFalse();
        assertThat(grants.mayCall(CI, dynamic("triage"))).as("a registration carries no labels").isFalse();
        assertThat(grants.mayCall(OPS, tagged("kube", "k8s"))).isTrue();
        assertThat(grants.mayCall(OPS, tagged("kube", "other"))).isFalse();
        assertThat(grants.mayCall(OPS, agent("triage"))).isFalse();
    }

    @Test
    void claimSubjectsGrantJwtCallers() {
        Caller jwt = new Caller("ada", Caller.Kind.JWT, Map.of("groups", List.of("sre")), null);
        Caller other = new Caller("bob", Caller.Kind.JWT, Map.of("groups", List.of("dev")), null);
        Grants grants = Grants.of(List.of(policy("sre", List.of(new Subject.Claim("groups", List.of("sre"))), List.of(),
                Map.of(), List.of(), List.of("*"))), Map.of());
        assertThat(grants.mayCall(jwt, agent("echo"))).isTrue();
        assertThat(grants.mayCall(other, agent("echo"))).isFalse();
    }

    @Test
    void aPolicyThatGrantsNothingStillClosesTheGateway() {
        Grants grants = Grants.of(List.of(AccessPolicySpec.grantsNothing("broken")), Map.of());
        assertThat(grants.open()).isFalse();
        assertThat(grants.mayCall(CI, agent("echo"))).isFalse();
    }

    @Test
    void anAdminOnlyPolicyGrantsTheConsoleToItsSubjectsAndLeavesTheGatewayOpen() {
        Caller sre = new Caller("alice", Caller.Kind.JWT, Map.of("groups", List.of("sre")), null);
        Caller dev = new Caller("bob", Caller.Kind.JWT, Map.of("groups", List.of("dev")), null);
        AccessPolicySpec admins = new AccessPolicySpec("console", List.of(new Subject.ApiKey("ops"),
                new Subject.Claim("groups", List.of("sre"))), List.of(), Map.of(), List.of(), List.of(), null, true);
        Grants grants = Grants.of(List.of(admins), Map.of());
        assertThat(admins.adminOnly()).isTrue();
        assertThat(grants.open()).as("no gateway policy: every call allowed, as with none").isTrue();
        assertThat(grants.mayCall(CI, agent("echo"))).isTrue();
        assertThat(grants.anyAdmin()).isTrue();
        assertThat(grants.admin(OPS)).contains("console");
        assertThat(grants.admin(sre)).contains("console");
        assertThat(grants.admin(CI)).isEmpty();
        assertThat(grants.admin(dev)).isEmpty();
        assertThat(grants.admin(Caller.address("127.0.0.1"))).as("an address is no subject").isEmpty();
    }

    @Test
    void anAdminPolicyWithMethodsIsAlsoAGatewayPolicyAndNoAdminAnywhereGrantsNoOne() {
        AccessPolicySpec both = new AccessPolicySpec("ops-all", List.of(new Subject.ApiKey("ops")), List.of("echo"),
                Map.of(), List.of(), List.of("*"), null, true);
        Grants grants = Grants.of(List.of(both), Map.of());
        assertThat(grants.open()).isFalse();
        assertThat(grants.mayCall(OPS, agent("echo"))).isTrue();
        assertThat(grants.mayCall(CI, agent("echo"))).isFalse();
        assertThat(grants.admin(OPS)).contains("ops-all");

        Grants plain = Grants.of(List.of(policy("ci", List.of(new Subject.ApiKey("ci-bot")), List.of(), Map.of(),
                List.of(), List.of("*"))), Map.of());
        assertThat(plain.anyAdmin()).isFalse();
        assertThat(plain.admin(CI)).isEmpty();
        assertThat(Grants.OPEN.anyAdmin()).isFalse();
        assertThat(AccessPolicySpec.grantsNothing("broken").admin()).as("a broken policy grants no console").isFalse();
    }

    private static AccessPolicySpec policy(String name, List<Subject> subjects, List<String> names,
            Map<String, String> labels, List<String> tags, List<String> methods) {
        return new AccessPolicySpec(name, subjects, names, labels, tags, methods, null);
    }

    static RegisteredAgent agent(String id) {
        return registered(id, AgentOrigin.CONFIG, List.of());
    }

    private static RegisteredAgent dynamic(String id) {
        return registered(id, AgentOrigin.DYNAMIC, List.of());
    }

    private static RegisteredAgent tagged(String id, String tag) {
        return registered(id, AgentOrigin.DYNAMIC, List.of(new AgentSkill("s", "s", "", List.of(tag), null, null, null)));
    }

    private static RegisteredAgent registered(String id, AgentOrigin origin, List<AgentSkill> skills) {
        Instant now = Instant.EPOCH;
        return new RegisteredAgent(id, id, "http://127.0.0.1:9/", "", "", skills, null, null, null, Map.of(),
                AgentLimits.DEFAULTS, origin, now, now);
    }
}
