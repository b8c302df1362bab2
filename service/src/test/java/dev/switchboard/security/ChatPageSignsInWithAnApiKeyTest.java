package dev.switchboard.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.fail;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.testing.BrowserTest;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.TestAgent;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.io.File;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.Alert;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.UnexpectedAlertBehaviour;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.ExpectedConditions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * Issue 8, web chat identity, in a real Chromium: on a server that wants an identity the page still works.
 * It asks for an API key once per load, keeps it in the tab (sessionStorage), sends it as a Bearer header on
 * every call and on the live stream (read with fetch), and does not ask again after a reload.
 */
@ServerTest
@BrowserTest
class ChatPageSignsInWithAnApiKeyTest {

    private static final String CHROMIUM = "/usr/bin/chromium";
    private static final String CHROMEDRIVER = "/usr/bin/chromedriver";
    private static final Duration WAIT = Duration.ofSeconds(30);
    private static final String KEY = "page-key-3f9b1c2d";

    @TempDir
    static Path dir;

    static Vertx vertx;
    static TestAgent agent;
    static SwitchboardApp app;
    static String page;
    static WebDriver browser;

    @BeforeAll
    static void start() throws Exception {
        for (String file : List.of(CHROMIUM, CHROMEDRIVER)) {
            if (!Files.isExecutable(Path.of(file))) {
                fail("This browser test needs Debian's Chromium and its driver, and " + file
                        + " is missing: run apt-get install -y chromium chromium-driver");
            }
        }
        vertx = Vertx.vertx();
        agent = TestAgent.start(vertx, TestAgentOptions.echo("writer").withDefaultBehavior("/stream 5 150"), 0).await();
        app = SwitchboardFixture.builder().vertx(vertx).yaml(ConfigYaml.server(dir.resolve("db"), """
                listen: 0.0.0.0:0
                adminToken: admin-token-0123456789
                apiKeys: [{name: ci-bot, key: %s}]
                """.formatted(KEY)).webBackend("writer", agent.url(), null)).start().app();
        page = "http://127.0.0.1:" + URI.create(app.baseUrl()).getPort() + "/";

        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM);
        options.setUnhandledPromptBehaviour(UnexpectedAlertBehaviour.IGNORE);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--window-size=1280,900",
                "--user-data-dir=" + Files.createDirectories(dir.resolve("chromium-profile")));
        browser = new ChromeDriver(new ChromeDriverService.Builder().usingDriverExecutable(new File(CHROMEDRIVER))
                .usingAnyFreePort().build(), options);
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.quit();
        }
        TestServers.stop(app, agent, vertx);
    }

    @Test
    void asksOnceKeepsTheKeyInTheTabAndStreamsWithIt() {
        // a wrong key: the page says what it needs and does not nag
        browser.get(page);
        answerPrompt("not-the-key");
        await("the page to say it needs a key", b -> b.findElement(By.id("channels-empty")).getText()
                .contains("needs an API key") ? true : null);
        assertThat(alertPresent()).as("asked once per load").isFalse();

        // the right key after a reload: the chat works, live answer included
        browser.navigate().refresh();
        answerPrompt(KEY);
        WebElement channel = await("the writer channel", b -> b.findElements(
                By.cssSelector("[data-testid=channel-item][data-channel=writer]")).stream().findFirst().orElse(null));
        assertThat(browser.findElement(By.id("me-name")).getText()).isEqualTo("ci-bot");
        channel.click();
        WebElement input = await("the new-thread box", b -> b.findElement(By.cssSelector("[data-testid=new-thread-input]"))
                .isDisplayed() ? b.findElement(By.cssSelector("[data-testid=new-thread-input]")) : null);
        input.sendKeys("one two three four five six");
        browser.findElement(By.cssSelector("[data-testid=new-thread-button]")).click();
        await("the live stream", b -> "live".equals(b.findElement(By.cssSelector("[data-testid=connection-status]"))
                .getAttribute("data-state")) ? true : null);
        await("the streamed answer, completed", b -> b.findElements(By.cssSelector("[data-testid=post][data-kind=agent]"))
                .stream().anyMatch(p -> "completed".equals(p.getAttribute("data-state"))
                        && p.getText().contains("one two three four five six")) ? true : null);
        assertThat(js("return sessionStorage.getItem('switchboard.apiKey');")).isEqualTo(KEY);

        // a reload keeps the key: no question this time
        browser.navigate().refresh();
        await("the channels, without asking", b -> !b.findElements(
                By.cssSelector("[data-testid=channel-item][data-channel=writer]")).isEmpty() ? true : null);
        assertThat(alertPresent()).isFalse();
    }

    private static void answerPrompt(String key) {
        Alert prompt = new WebDriverWait(browser, WAIT).until(ExpectedConditions.alertIsPresent());
        assertThat(prompt.getText()).contains("API key");
        prompt.sendKeys(key);
        prompt.accept();
    }

    private static boolean alertPresent() {
        try {
            browser.switchTo().alert();
            return true;
        } catch (org.openqa.selenium.NoAlertPresentException e) {
            return false;
        }
    }

    private static Object js(String script) {
        return ((JavascriptExecutor) browser).executeScript(script);
    }

    private static <T> T await(String what, Function<WebDriver, T> condition) {
        return new WebDriverWait(browser, WAIT, Duration.ofMillis(50))
                .ignoring(StaleElementReferenceException.class)
                .withMessage(() -> "waiting for " + what + " at " + browser.getCurrentUrl())
                .until(condition::apply);
    }
}
