package dev.switchboard;

import java.time.Duration;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Every test class waits up to {@link #WAIT} for a condition unless it says otherwise: conditions that
 * take milliseconds must not fail because a loaded 2-core machine took seconds. Registered for every
 * class through {@code META-INF/services} (autodetection is on in {@code junit-platform.properties}).
 */
public final class AwaitDefaults implements BeforeAllCallback {

    /** How long a test waits for something that normally takes milliseconds. */
    public static final Duration WAIT = Duration.ofSeconds(30);

    @Override
    public void beforeAll(ExtensionContext context) {
        Awaitility.setDefaultTimeout(WAIT);
    }
}
