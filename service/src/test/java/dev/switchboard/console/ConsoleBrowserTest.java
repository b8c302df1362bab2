package dev.switchboard.console;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.chat.web.Chromium;
import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.Rpc;
import dev.switchboard.registry.RegistrySettings;
import dev.switchboard.testing.BrowserTest;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * Issue 27, the console in headless Chromium: the registry screen shows both agents reachable, then one going
 * unreachable once it is closed (the page polls at least once per probe interval); a click opens an agent's page
 * with its cards and the last hour's chart, and its "try it" box streams an answer through the gateway. Screenshots of both screens go to target/ on every run, and to docs/
 * (the ones the docs show) with {@code -Dswitchboard.regenerate=true}, so a test run leaves the tree clean.
 */
@ServerTest
@BrowserTest
class ConsoleBrowserTest {

    static final Path DOCS = Path.of("..", "docs");

    @TempDir
    Path dir;
    private Harness h;
    private WebDriver browser;

    @AfterEach
    void stop() {
        if (browser != null) {
            browser.quit();
        }
        if (h != null) {
            h.close();
        }
    }

    @Test
    void theRegistryShowsAnAgentGoingUnreachableAndAClickOpensAnAgent() throws Exception {
        h = new Harness(dir).registry(new RegistrySettings(List.of(), 1000, Duration.ofSeconds(1)));
        TestAgent echo = h.agent(TestAgentOptions.echo("echo"));
        TestAgent doomed = h.agent(TestAgentOptions.echo("doomed"));
        h.backend("echo", echo.url()).backend("doomed", doomed.url()).start();
        for (int i = 0; i < 3; i++) {
            assertThat(h.http().rpc("echo", Rpc.send(i, "hello " + i)).status()).isEqualTo(200);
        }
        browser = Chromium.start(dir);
        browser.get(h.http().base() + "/console/");

        reachable("echo", "true");
        reachable("doomed", "true");
        assertThat(Chromium.text(browser.findElement(By.cssSelector("tr[data-agent=echo] td.url")))).isEqualTo(echo.url());

        doomed.close().await();
        reachable("doomed", "false");
        screenshot("console-registry.png");
        assertThat(browser.findElement(By.cssSelector("[data-testid=reachable-doomed]")).getDomAttribute("title"))
                .as("why, on hover").isNotBlank();
        reachable("echo", "true");

        browser.findElement(By.cssSelector("[data-testid=agent-link-echo]")).click();
        Chromium.await(browser, "the agent's page", b -> {
            WebElement title = b.findElement(By.cssSelector("[data-testid=agent-title]"));
            return b.findElement(By.cssSelector("[data-testid=agent-view]")).isDisplayed()
                    && Chromium.text(title).startsWith("echo") ? title : null;
        });
        Chromium.await(browser, "the fetched card", b -> Chromium.text(b.findElement(
                By.cssSelector("[data-testid=card-fetched]"))).contains("\"name\": \"echo\"") ? true : null);
        assertThat(Chromium.text(browser.findElement(By.cssSelector("[data-testid=card-rewritten]"))))
                .contains(h.http().base() + "/a2a/echo");
        List<WebElement> bars = browser.findElements(By.cssSelector("[data-testid=chart] rect[data-requests]"));
        assertThat(bars).as("the calls made, in the chart").isNotEmpty();
        int charted = bars.stream().mapToInt(b -> Integer.parseInt(b.getDomAttribute("data-requests"))).sum();
        assertThat(charted).isEqualTo(3);
        assertThat(browser.findElements(By.cssSelector("[data-testid=chart] circle[data-series=p99Ms]"))).as("p99").isNotEmpty();

        // try it: one message through the gateway, its stream shown event by event
        WebElement input = browser.findElement(By.cssSelector("[data-testid=try-input]"));
        input.clear();
        input.sendKeys("ping from the console");
        browser.findElement(By.cssSelector("[data-testid=try-button]")).click();
        Chromium.await(browser, "the echoed stream", b -> b.findElements(By.cssSelector("[data-testid=try-event]")).stream()
                .map(Chromium::text).anyMatch(t -> t.contains("ping from the console")) ? true : null);
        screenshot("console-agent.png");
        Chromium.js(browser, "document.getElementById('try-form').scrollIntoView()");
        screenshot("console-try.png");
    }

    private void reachable(String agent, String state) {
        Chromium.await(browser, agent + " shown reachable=" + state, b -> {
            List<WebElement> badge = b.findElements(By.cssSelector("[data-testid=reachable-" + agent + "]"));
            return !badge.isEmpty() && state.equals(badge.get(0).getDomAttribute("data-reachable")) ? true : null;
        });
    }

    private void screenshot(String name) throws Exception {
        byte[] png = ((TakesScreenshot) browser).getScreenshotAs(OutputType.BYTES);
        assertThat(png.length).isGreaterThan(1000);
        Files.write(Path.of("target").resolve(name), png);
        if (Boolean.getBoolean("switchboard.regenerate")) {
            Files.write(DOCS.resolve(name), png);
        }
    }
}
