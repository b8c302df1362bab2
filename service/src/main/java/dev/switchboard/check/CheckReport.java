package dev.switchboard.check;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.switchboard.protocol.Json;
import java.time.Duration;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What {@code switchboard check} found: one result per row, or why it could not run.
 *
 * @param dialect the dialect as spelled on the command line ({@code a2a}, {@code kagent-v1}; as given when wrong)
 * @param version the A2A version the agent was spoken to in (null when the card could not tell)
 * @param error why the check could not run at all (exit 2), else null
 * @param cancelled the tasks the checker started and cancelled, so the agent is left as it was found
 */
public record CheckReport(String url, String endpoint, String dialect, String version, List<RowResult> rows,
        String error, List<String> cancelled, Duration took) {

    public static final int EXIT_OK = 0;
    public static final int EXIT_FAILED = 1;
    public static final int EXIT_COULD_NOT_RUN = 2;

    public CheckReport {
        rows = rows == null ? List.of() : List.copyOf(rows);
        cancelled = cancelled == null ? List.of() : List.copyOf(cancelled);
    }

    static CheckReport couldNotRun(CheckRequest request, String error, Duration took) {
        return new CheckReport(request.url(), request.endpointUrl(), request.dialect().configName(), null, List.of(), error, List.of(), took);
    }

    /** The command's arguments were wrong: nothing was probed. */
    public static CheckReport badArguments(String url, String dialect, String error) {
        return new CheckReport(url, null, dialect, null, List.of(), error, List.of(), Duration.ZERO);
    }

    /** 0 when nothing FAILs, 1 when something does, 2 when the check could not run. */
    public int exitCode() {
        if (error != null) {
            return EXIT_COULD_NOT_RUN;
        }
        return rows.stream().anyMatch(r -> r.verdict() == Verdict.FAIL) ? EXIT_FAILED : EXIT_OK;
    }

    public RowResult row(RowId id) {
        return rows.stream().filter(r -> r.row() == id).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no row " + id.id() + " in this report"));
    }

    public Map<Verdict, Integer> counts() {
        Map<Verdict, Integer> counts = new EnumMap<>(Verdict.class);
        for (Verdict v : Verdict.values()) {
            counts.put(v, 0);
        }
        rows.forEach(r -> counts.merge(r.verdict(), 1, Integer::sum));
        return counts;
    }

    /** One line per row: verdict, id, reason; then a summary line. */
    public String text() {
        StringBuilder sb = new StringBuilder();
        sb.append("switchboard check ").append(endpoint).append(" (").append(dialect)
                .append(version == null ? "" : ", A2A " + version).append(")\n");
        if (error != null) {
            sb.append("could not run: ").append(error).append('\n');
            return sb.toString();
        }
        int width = rows.stream().mapToInt(r -> r.row().id().length()).max().orElse(0);
        for (RowResult r : rows) {
            sb.append(String.format("%-4s  %-" + width + "s  %s%n", r.verdict(), r.row().id(), r.reason()));
        }
        Map<Verdict, Integer> c = counts();
        sb.append(String.format("%d PASS, %d FAIL, %d WARN, %d SKIP in %s", c.get(Verdict.PASS), c.get(Verdict.FAIL),
                c.get(Verdict.WARN), c.get(Verdict.SKIP), Evidence.duration(took)));
        if (!cancelled.isEmpty()) {
            sb.append("; cancelled ").append(cancelled.size()).append(" task(s) it started");
        }
        sb.append('\n');
        return sb.toString();
    }

    /**
     * The same as one JSON document: {@code {url, endpoint, dialect, version, exitCode, error, rows:[{id, verdict,
     * reason}], counts:{PASS, FAIL, WARN, SKIP}, cancelledTasks:[…], tookMs}}.
     */
    public String json() {
        ObjectNode root = Json.object();
        root.put("url", url);
        root.put("endpoint", endpoint);
        root.put("dialect", dialect);
        root.put("version", version);
        root.put("exitCode", exitCode());
        root.put("error", error);
        ArrayNode list = root.putArray("rows");
        for (RowResult r : rows) {
            ObjectNode row = list.addObject();
            row.put("id", r.row().id());
            row.put("verdict", r.verdict().name());
            row.put("reason", r.reason());
        }
        ObjectNode counts = root.putObject("counts");
        counts().forEach((v, n) -> counts.put(v.name(), n));
        ArrayNode c = root.putArray("cancelledTasks");
        cancelled.forEach(c::add);
        root.put("tookMs", took.toMillis());
        return Json.write(root);
    }
}
