package dev.switchboard.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Talks to a peer built on another A2A SDK: Node's {@code @a2a-js/sdk} or the Java A2A SDK.
 * Tagged {@value Tiers#INTEROP}: left out of {@code ./mvnw test}, run by {@code -Pall} and {@code ./run-tests}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Tag(Tiers.INTEROP)
public @interface InteropTest {}
