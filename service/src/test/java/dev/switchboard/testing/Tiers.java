package dev.switchboard.testing;

/**
 * The test tiers' tag names. A test class with none of them is in the fast tier, which {@code ./mvnw test} runs; the
 * surefire configuration in the parent POM excludes these groups unless {@code -Pall} is given.
 */
public final class Tiers {

    public static final String SERVER = "server";
    public static final String PROCESS = "process";
    public static final String BROWSER = "browser";
    public static final String POSTGRES = "postgres";
    public static final String INTEROP = "interop";

    private Tiers() {}
}
