package dev.switchboard.check;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** What the check tests assert about a report: which rows pass, and which one alone does not. */
final class ReportAssertions {

    private ReportAssertions() {}

    /** Exactly {@code row} has {@code verdict} among the non-passing rows it allows: no other row FAILs. */
    static void onlyFails(CheckReport report, RowId row, Verdict verdict, String reasonPart) {
        RowResult r = report.row(row);
        assertThat(r.verdict()).as(report.text()).isEqualTo(verdict);
        assertThat(r.reason()).as(report.text()).contains(reasonPart);
        List<RowResult> otherFails = report.rows().stream()
                .filter(x -> x.row() != row && x.verdict() == Verdict.FAIL).toList();
        assertThat(otherFails).as(report.text()).isEmpty();
        assertThat(report.exitCode()).isEqualTo(verdict == Verdict.FAIL ? 1 : 0);
    }

    /** Every row PASSes but the listed ones, which have the given verdicts. */
    static void passesBut(CheckReport report, Object... rowThenVerdict) {
        Map<RowId, Verdict> expected = new EnumMap<>(RowId.class);
        for (int i = 0; i < rowThenVerdict.length; i += 2) {
            expected.put((RowId) rowThenVerdict[i], (Verdict) rowThenVerdict[i + 1]);
        }
        for (RowResult r : report.rows()) {
            assertThat(r.verdict()).as(r.row().id() + "\n" + report.text())
                    .isEqualTo(expected.getOrDefault(r.row(), Verdict.PASS));
        }
    }
}
