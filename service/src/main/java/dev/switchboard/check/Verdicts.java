package dev.switchboard.check;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** Each row's worst verdict so far, and why the probes stopped; builds the report's rows. */
final class Verdicts {

    private final Map<RowId, RowResult> rows = new EnumMap<>(RowId.class);
    private String stopped;

    /**
     * Records a row's verdict; a row seen on several turns keeps the worst (FAIL, then WARN, then PASS, then SKIP), so
     * a second turn that breaks a row the first kept is not hidden, and the first reason of a rank stays.
     */
    void conclude(RowId row, Verdict verdict, String reason) {
        RowResult before = rows.get(row);
        if (before == null || rank(verdict) > rank(before.verdict())) {
            rows.put(row, new RowResult(row, verdict, reason));
        }
    }

    private static int rank(Verdict v) {
        return switch (v) {
            case SKIP -> 0;
            case PASS -> 1;
            case WARN -> 2;
            case FAIL -> 3;
        };
    }

    boolean concluded(RowId row) {
        return rows.containsKey(row);
    }

    /** The rows concluded so far, in order. */
    List<RowResult> concluded() {
        return List.copyOf(rows.values());
    }

    /** The first reason given wins: it says which probe the rest needed. */
    void stop(String reason) {
        if (stopped == null) {
            stopped = reason;
        }
    }

    /** Every row in order; one no probe reached is skipped with the reason the probes stopped. */
    List<RowResult> results(boolean kagent) {
        Map<RowId, RowResult> out = new EnumMap<>(rows);
        for (RowId row : RowId.values()) {
            if (row == RowId.KAGENT_HITL_EXTENSION && !kagent) {
                continue;
            }
            out.putIfAbsent(row, new RowResult(row, Verdict.SKIP, stopped == null ? "not reached" : stopped));
        }
        return List.copyOf(out.values());
    }
}
