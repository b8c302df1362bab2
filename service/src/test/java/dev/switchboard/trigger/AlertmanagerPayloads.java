package dev.switchboard.trigger;

/** Alertmanager webhook v4 payloads, as the trigger tests send them. */
final class AlertmanagerPayloads {

    private AlertmanagerPayloads() {}

    /** An Alertmanager webhook v4 payload of one group with the given alerts (each a JSON object). */
    static String alertmanager(String groupKey, String status, String... alerts) {
        return """
                {"version": "4", "groupKey": "%s", "truncatedAlerts": 0, "status": "%s", "receiver": "switchboard",
                 "groupLabels": {"alertname": "HighLatency"},
                 "commonLabels": {"alertname": "HighLatency", "severity": "page"},
                 "commonAnnotations": {"summary": "p99 above 2s"},
                 "externalURL": "http://alertmanager.example:9093",
                 "alerts": [%s]}
                """.formatted(groupKey.replace("\"", "\\\""), status, String.join(",", alerts));
    }

    static String alert(String status, String instance, String fingerprint, String endsAt) {
        return """
                {"status": "%s", "labels": {"alertname": "HighLatency", "instance": "%s"},
                 "annotations": {"description": "latency on %s"},
                 "startsAt": "2024-05-01T10:00:00Z", "endsAt": "%s",
                 "generatorURL": "http://prometheus.example:9090/graph", "fingerprint": "%s"}
                """.formatted(status, instance, instance, endsAt, fingerprint);
    }
}
