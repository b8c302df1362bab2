package dev.switchboard.trigger;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.switchboard.bridge.UntrustedData;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Alertmanager's webhook payload (version 4): one notification of one alert group. Its {@code groupKey} is the
 * thread; its status and its alerts' fingerprints, states and times make it one notification (a delivery Alertmanager
 * retries is identical, so it is the same turn). Only Switchboard's own words stand outside the blocks: the counts,
 * the states (checked to be firing or resolved) and the trigger's name; every value of the payload is inside one.
 */
final class AlertmanagerFormat {

    static final String SOURCE = "alertmanager";
    /** alerts shown in one turn; the rest are counted */
    static final int MAX_ALERTS = 20;
    static final int MAX_VALUE = 1_000;
    static final int MAX_BLOCK = 4_000;
    /** once the text is this long, no further alert is shown */
    static final int MAX_TEXT = 48_000;
    private static final List<String> STATES = List.of("firing", "resolved");
    private static final ObjectMapper JSON = new ObjectMapper();

    private AlertmanagerFormat() {}

    private record Alert(String status, Map<String, String> labels, Map<String, String> annotations, String startsAt,
            String endsAt, String generatorURL, String fingerprint) {}

    static Notification read(String trigger, JsonNode body) {
        if (body == null || !body.isObject()) {
            throw new BadPayload("body", "must be a JSON object (Alertmanager's webhook payload, version 4)");
        }
        String version = Fields.text(body, "version", "version", false);
        if (version != null && !version.equals("4")) {
            throw new BadPayload("version", "must be \"4\" (Alertmanager's webhook payload version 4)");
        }
        String groupKey = Fields.text(body, "groupKey", "groupKey", true);
        String status = Fields.oneOf(body, "status", "status", STATES);
        String receiver = Fields.text(body, "receiver", "receiver", false);
        Map<String, String> groupLabels = Fields.strings(body, "groupLabels", "groupLabels", false);
        Map<String, String> commonLabels = Fields.strings(body, "commonLabels", "commonLabels", false);
        Map<String, String> commonAnnotations = Fields.strings(body, "commonAnnotations", "commonAnnotations", false);
        String externalUrl = Fields.text(body, "externalURL", "externalURL", false);
        long truncated = 0;
        JsonNode t = body.get("truncatedAlerts");
        if (t != null && !t.isNull()) {
            if (!t.canConvertToLong() || !t.isIntegralNumber() || t.asLong() < 0) {
                throw new BadPayload("truncatedAlerts", "must be a whole number, 0 or more");
            }
            truncated = t.asLong();
        }
        List<JsonNode> raw = Fields.list(body, "alerts", "alerts");
        List<Alert> alerts = new java.util.ArrayList<>();
        for (int i = 0; i < raw.size(); i++) {
            String f = "alerts[" + i + "]";
            JsonNode a = raw.get(i);
            if (!a.isObject()) {
                throw new BadPayload(f, "must be an object");
            }
            alerts.add(new Alert(Fields.oneOf(a, "status", f + ".status", STATES),
                    Fields.strings(a, "labels", f + ".labels", true),
                    Fields.strings(a, "annotations", f + ".annotations", false),
                    Fields.text(a, "startsAt", f + ".startsAt", false), Fields.text(a, "endsAt", f + ".endsAt", false),
                    Fields.text(a, "generatorURL", f + ".generatorURL", false),
                    Fields.text(a, "fingerprint", f + ".fingerprint", false)));
        }
        return new Notification(groupKey, identity(groupKey, status, truncated, alerts),
                title(status, groupLabels, commonLabels),
                text(trigger, status, receiver, groupKey, groupLabels, commonLabels, commonAnnotations, externalUrl,
                        truncated, alerts));
    }

    /** The group, the status and each alert's fingerprint (or labels), state and times: equal for a retried delivery. */
    private static String identity(String groupKey, String status, long truncated, List<Alert> alerts) {
        ArrayNode id = JSON.createArrayNode().add(SOURCE).add(groupKey).add(status).add(truncated);
        for (Alert a : alerts) {
            ArrayNode x = id.addArray();
            if (a.fingerprint() != null && !a.fingerprint().isBlank()) {
                x.add(a.fingerprint());
            } else {
                x.add(JSON.valueToTree(new TreeMap<>(a.labels())).toString());
            }
            x.add(a.status()).add(a.startsAt()).add(a.endsAt());
        }
        return id.toString();
    }

    private static String title(String status, Map<String, String> groupLabels, Map<String, String> commonLabels) {
        String name = commonLabels.getOrDefault("alertname", groupLabels.get("alertname"));
        if (name == null || name.isBlank()) {
            StringBuilder b = new StringBuilder();
            groupLabels.forEach((k, v) -> b.append(b.isEmpty() ? "" : ", ").append(k).append('=').append(v));
            name = b.isEmpty() ? "alert group" : b.toString();
        }
        String title = "[" + status.toUpperCase(java.util.Locale.ROOT) + "] " + name.strip().replaceAll("\\s+", " ");
        return title.length() > 80 ? title.substring(0, 79) + "…" : title;
    }

    private static String text(String trigger, String status, String receiver, String groupKey,
            Map<String, String> groupLabels, Map<String, String> commonLabels, Map<String, String> commonAnnotations,
            String externalUrl, long truncated, List<Alert> alerts) {
        long firing = alerts.stream().filter(a -> a.status().equals("firing")).count();
        long resolved = alerts.size() - firing;
        StringBuilder b = new StringBuilder();
        b.append("Alertmanager notification for an alert group, received by the trigger ").append(trigger)
                .append(": the group is ").append(status).append(", with ").append(count(firing, "alert")).append(" firing and ")
                .append(resolved).append(" resolved");
        if (truncated > 0) {
            b.append(" (Alertmanager left out ").append(count(truncated, "more alert")).append(")");
        }
        b.append(". No person wrote this message: the group and its alerts follow, as data.\n\n");
        StringBuilder group = new StringBuilder();
        group.append("groupKey: ").append(Fields.bounded(groupKey, MAX_VALUE)).append('\n');
        if (receiver != null) {
            group.append("receiver: ").append(Fields.bounded(receiver, MAX_VALUE)).append('\n');
        }
        if (externalUrl != null) {
            group.append("externalURL: ").append(Fields.bounded(externalUrl, MAX_VALUE)).append('\n');
        }
        b.append(UntrustedData.section("The alert group", List.of(
                new UntrustedData.Block(SOURCE, "group", group.toString()),
                new UntrustedData.Block(SOURCE, "group-labels", Fields.lines(groupLabels, MAX_VALUE, MAX_BLOCK)),
                new UntrustedData.Block(SOURCE, "common-labels", Fields.lines(commonLabels, MAX_VALUE, MAX_BLOCK)),
                new UntrustedData.Block(SOURCE, "common-annotations", Fields.lines(commonAnnotations, MAX_VALUE, MAX_BLOCK)))));
        int shown = 0;
        for (Alert a : alerts) {
            if (shown == MAX_ALERTS || b.length() > MAX_TEXT) {
                break;
            }
            shown++;
            StringBuilder details = new StringBuilder();
            line(details, "startsAt", a.startsAt());
            line(details, "endsAt", a.endsAt());
            line(details, "generatorURL", a.generatorURL());
            line(details, "fingerprint", a.fingerprint());
            b.append("\n\n").append(UntrustedData.section("Alert " + shown + " of " + alerts.size() + ", " + a.status(), List.of(
                    new UntrustedData.Block(SOURCE, "labels", Fields.lines(a.labels(), MAX_VALUE, MAX_BLOCK)),
                    new UntrustedData.Block(SOURCE, "annotations", Fields.lines(a.annotations(), MAX_VALUE, MAX_BLOCK)),
                    new UntrustedData.Block(SOURCE, "alert", details.isEmpty() ? "(none)\n" : details.toString()))));
        }
        if (shown < alerts.size()) {
            b.append("\n\n…and ").append(count(alerts.size() - shown, "more alert")).append(" of this notification not shown.");
        }
        return b.toString();
    }

    private static void line(StringBuilder b, String name, String value) {
        if (value != null) {
            b.append(name).append(": ").append(Fields.bounded(value, MAX_VALUE)).append('\n');
        }
    }

    static String count(long n, String what) {
        return n + " " + what + (n == 1 ? "" : "s");
    }
}
