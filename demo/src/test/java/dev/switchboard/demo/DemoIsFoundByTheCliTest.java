package dev.switchboard.demo;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.cli.Demo;
import org.junit.jupiter.api.Test;

/** `switchboard demo` finds its agents through ServiceLoader: a lost services file would break it silently. */
class DemoIsFoundByTheCliTest {

    @Test
    void theDemoModuleProvidesTheCliItsDemo() {
        assertThat(Demo.find()).get().isInstanceOf(TestkitDemo.class);
    }
}
