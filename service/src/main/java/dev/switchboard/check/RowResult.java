package dev.switchboard.check;

import java.util.Objects;

/** One row's verdict and the reason, with abbreviated evidence (what was sent, what came back). */
public record RowResult(RowId row, Verdict verdict, String reason) {

    public RowResult {
        Objects.requireNonNull(row, "row");
        Objects.requireNonNull(verdict, "verdict");
        reason = reason == null ? "" : reason;
    }
}
