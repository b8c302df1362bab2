package dev.switchboard.chat.slack;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Who may approve or reject a kagent tool call from Slack, by button or by a reply in the thread. A channel can
 * hold more people than should run an agent's tools: guests, and in a Slack Connect channel people of another
 * organisation. So:
 * <ol>
 *   <li>only a member of the app's own team (from {@code auth.test}) decides: the click's {@code user.team_id} and
 *       {@code team.id}, and {@code users.info}'s {@code team_id}, must all be that team (a Slack Connect user's are
 *       their own organisation's);</li>
 *   <li>when the Binding names {@code questions.approvers}, only they decide: a user id directly, a user group
 *       ({@code S…}) through its members ({@code usergroups.users.list});</li>
 *   <li>a guest ({@code is_restricted} / {@code is_ultra_restricted}) decides only when named by their own user id:
 *       never by default, and never through a group (whose members anyone may be allowed to change).</li>
 * </ol>
 * Every doubt refuses: the team not learned yet, Slack not answering {@code users.info}, a group Slack will not
 * list. What Slack says is cached briefly (people 5 minutes, groups 1 minute) and bounded, so a person removed
 * from a group or made a guest loses the right within minutes. Used on the app's intake thread.
 */
final class SlackApprovers {

    private static final Logger LOG = LoggerFactory.getLogger(SlackApprovers.class);
    static final Duration PERSON_TTL = Duration.ofMinutes(5);
    static final Duration GROUP_TTL = Duration.ofMinutes(1);
    private static final int MAX_PEOPLE = 10_000;
    private static final int MAX_GROUPS = 100;

    /** Whether someone may decide, and if not, what they are told (shown to them alone). */
    record Verdict(boolean allowed, String why) {
        /** What they are told, as a sentence. */
        String sentence() {
            return why == null || why.isEmpty() ? "" : Character.toUpperCase(why.charAt(0)) + why.substring(1);
        }

        static final Verdict ALLOWED = new Verdict(true, null);

        static Verdict refused(String why) {
            return new Verdict(false, why);
        }
    }

    private record Member(String teamId, boolean guest, Instant until) {}

    private record Group(Set<String> members, Instant until) {}

    private final Function<String, List<String>> allowedOf;
    private final SlackApi api;
    private final Clock clock;
    private final Supplier<String> ownTeam;
    private final Function<String, List<String>> approversOf;
    private final Map<String, Member> people = lru(MAX_PEOPLE);
    private final Map<String, Group> groups = lru(MAX_GROUPS);

    /**
     * @param ownTeam the app's team id, null until {@code auth.test} has answered
     * @param approversOf a Binding's {@code questions.approvers} by its name; empty (or null) when it names none
     */
    SlackApprovers(SlackApi api, Clock clock, Supplier<String> ownTeam, Function<String, List<String>> approversOf) {
        this(api, clock, ownTeam, approversOf, b -> List.of());
    }

    /** @param allowedOf a Binding's {@code allowedUsers} by its name; they approve when it names no approvers */
    SlackApprovers(SlackApi api, Clock clock, Supplier<String> ownTeam, Function<String, List<String>> approversOf,
            Function<String, List<String>> allowedOf) {
        this.allowedOf = allowedOf;
        this.api = api;
        this.clock = clock;
        this.ownTeam = ownTeam;
        this.approversOf = approversOf;
    }

    /**
     * May {@code userId} decide a tool call of a thread of Binding {@code binding}?
     *
     * @param claimedTeams the team ids the click carries ({@code user.team_id}, {@code team.id}); empty for a message
     *     (whose event is checked against the app's team by nothing else: users.info is asked)
     */
    Verdict verdict(String binding, String userId, List<String> claimedTeams) {
        return verdict(approvers(binding), userId, claimedTeams, "approve or reject tool calls", "approve or reject this tool call");
    }

    /**
     * May {@code userId} start a turn in a thread of Binding {@code binding} ({@code allowedUsers})? Anyone when
     * it names nobody; else only the people named (or the members of the groups named, not guests), of this
     * workspace.
     */
    Verdict mayStart(String binding, String userId) {
        List<String> allowed = binding == null ? null : allowedOf.apply(binding);
        if (allowed == null || allowed.isEmpty()) {
            return Verdict.ALLOWED;
        }
        return verdict(allowed, userId, List.of(), "talk to this agent", "talk to this agent");
    }

    private Verdict verdict(List<String> approvers, String userId, List<String> claimedTeams, String what, String whatHere) {
        String team = ownTeam.get();
        if (team == null) {
            return Verdict.refused("Switchboard has not learned its Slack workspace yet, so nothing was decided; try "
                    + "again in a minute.");
        }
        String otherTeam = "Only members of this Slack workspace can " + what + " here.";
        if (claimedTeams.stream().anyMatch(t -> !team.equals(t))) {
            return Verdict.refused(otherTeam);
        }
        Member m = member(userId);
        if (m == null) {
            return Verdict.refused("Slack could not say who you are just now, so nothing was decided; try again.");
        }
        // a person whose team Slack did not say is in doubt, and doubt refuses (a thread reply claims no team either)
        if (m.teamId() == null || !team.equals(m.teamId())) {
            return Verdict.refused(otherTeam);
        }
        if (approvers.contains(userId)) {
            return Verdict.ALLOWED;
        }
        if (m.guest()) {
            return Verdict.refused("Guests cannot " + what + " here"
                    + (approvers.isEmpty() ? "." : "; only " + names(approvers) + " can " + whatHere + "."));
        }
        if (approvers.isEmpty()) {
            return Verdict.ALLOWED;
        }
        for (String id : approvers) {
            if (id.startsWith("S") && groupMembers(id).contains(userId)) {
                return Verdict.ALLOWED;
            }
        }
        return Verdict.refused("only " + names(approvers) + " can " + whatHere + ".");
    }

    /** Who decides a Binding's tool calls, as the line under the buttons names them. */
    String who(String binding) {
        List<String> approvers = approvers(binding);
        return approvers.isEmpty() ? "Members of this workspace (not guests)" : "Only " + names(approvers);
    }

    /** A Binding's approvers; its allowed users when it names none. */
    private List<String> approvers(String binding) {
        List<String> a = binding == null ? null : approversOf.apply(binding);
        if (a == null || a.isEmpty()) {
            a = binding == null ? null : allowedOf.apply(binding);
        }
        return a == null ? List.of() : a;
    }

    /** {@code <@U…>} and {@code <!subteam^S…>}: Slack shows names (the ids are checked by the loader, no escaping). */
    static String names(List<String> approvers) {
        List<String> shown = approvers.stream().map(id -> id.startsWith("S") ? "<!subteam^" + id + ">" : "<@" + id + ">")
                .toList();
        return shown.size() == 1 ? shown.get(0)
                : String.join(", ", shown.subList(0, shown.size() - 1)) + " or " + shown.get(shown.size() - 1);
    }

    /** The person's team and whether they are a guest; null when Slack cannot say (not cached: asked again next time). */
    private Member member(String userId) {
        Instant now = clock.instant();
        synchronized (people) {
            Member m = people.get(userId);
            if (m != null && m.until().isAfter(now)) {
                return m;
            }
        }
        try {
            SlackApi.Person p = api.userInfo(userId);
            Member m = new Member(p.teamId(), p.guest(), now.plus(PERSON_TTL));
            synchronized (people) {
                people.put(userId, m);
            }
            return m;
        } catch (SlackApi.Failure e) {
            LOG.warn("slack: users.info for {} failed ({}); they cannot decide a tool call now", userId, e.getMessage());
            return null;
        }
    }

    /** A group's members; empty when Slack cannot list them (not cached: asked again next time). */
    private Set<String> groupMembers(String groupId) {
        Instant now = clock.instant();
        synchronized (groups) {
            Group g = groups.get(groupId);
            if (g != null && g.until().isAfter(now)) {
                return g.members();
            }
        }
        try {
            Set<String> members = Set.copyOf(api.userGroupMembers(groupId));
            synchronized (groups) {
                groups.put(groupId, new Group(members, now.plus(GROUP_TTL)));
            }
            return members;
        } catch (SlackApi.Failure e) {
            LOG.warn("slack: usergroups.users.list for {} failed ({}){}; its members cannot decide tool calls now", groupId,
                    e.getMessage(), "missing_scope".equals(e.error) ? " (the app needs the usergroups:read scope)" : "");
            return Set.of();
        }
    }

    private static <V> Map<String, V> lru(int max) {
        return new LinkedHashMap<>(64, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<String, V> eldest) {
                return size() > max;
            }
        };
    }
}
