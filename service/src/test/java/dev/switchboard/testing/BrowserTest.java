package dev.switchboard.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.Tag;

/**
 * Drives Debian's Chromium through chromedriver.
 * Tagged {@value Tiers#BROWSER}: left out of {@code ./mvnw test}, run by {@code -Pall} and {@code ./run-tests}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Inherited
@Tag(Tiers.BROWSER)
public @interface BrowserTest {}
