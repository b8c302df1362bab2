package dev.switchboard.check;

/** What the checker concluded about one contract row. */
public enum Verdict {
    /** observed, and as the contract asks */
    PASS,
    /** observed, and the bridge could not carry turns as the contract describes */
    FAIL,
    /** observed, not as the contract asks, but the bridge works around it (the reason says how) */
    WARN,
    /** not observed: the reason says why (another row failed first, a 0.3 agent, --quick, …) */
    SKIP
}
