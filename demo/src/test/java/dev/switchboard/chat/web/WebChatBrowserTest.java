package dev.switchboard.chat.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.demo.DemoAgents;
import dev.switchboard.testing.BrowserTest;
import dev.switchboard.testing.ServerTest;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * C1 end to end: the built-in web chat in a real headless Chromium against the demo (its web
 * channels bound to the demo agents), driven the way a person would use it.
 */
@ServerTest
@BrowserTest
class WebChatBrowserTest {

    private static final Pattern THREAD_URL = Pattern.compile("#/channel/([^/]+)/thread/([^/?#]+)$");

    @TempDir
    static Path dir;

    static Vertx vertx;
    static SwitchboardApp app;
    static WebDriver browser;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        app = DemoAgents.startDemo(vertx, "127.0.0.1", 0, "sqlite:" + dir.resolve("db")).await();
        browser = Chromium.start(dir);
    }

    @AfterAll
    static void stop() throws Exception {
        if (browser != null) {
            browser.quit();
        }
        if (app != null) {
            app.close().await();
        }
        if (vertx != null) {
            vertx.close().await();
        }
    }

    @Test
    void streamsTheAgentsAnswerLiveAndRestoresTheThreadAfterAReload() {
        String first = "Tell me how a telephone switchboard operator connected two callers by hand";
        String followUp = "And what did the operator say when the line was busy?";

        openChannel("writer");
        recordAgentTexts();
        browser.findElement(By.cssSelector("[data-testid=new-thread-input]")).sendKeys(first);
        browser.findElement(By.cssSelector("[data-testid=new-thread-button]")).click();

        String threadId = await("the URL to name the new thread", b -> {
            Matcher m = THREAD_URL.matcher(b.getCurrentUrl());
            return m.find() && m.group(1).equals("writer") ? m.group(2) : null;
        });
        // the demo agents echo what they are sent: the text after the bridge's "[Web: Name (id)]" line
        String answer = awaitAnswers(first).get(0);
        @SuppressWarnings("unchecked")
        List<String> seen = (List<String>) js("return window.__agentTexts;");
        assertThat(seen)
                .as("the answer appeared in pieces before it was whole (the writer streams it in 6 chunks)")
                .anyMatch(t -> !t.isEmpty() && t.length() < answer.length() && answer.startsWith(t))
                .endsWith(answer);
        awaitUserStates("completed");

        WebElement composer = browser.findElement(By.cssSelector("[data-testid=composer-input]"));
        composer.sendKeys(followUp);
        composer.sendKeys(Keys.ENTER); // Enter sends
        awaitAnswers(first, followUp);
        awaitUserStates("completed", "completed");
        assertThat(userTexts()).containsExactly(first, followUp);
        assertThat(browser.getCurrentUrl()).endsWith("#/channel/writer/thread/" + threadId);
        await("the thread in the channel's thread list", b -> !b.findElements(
                By.cssSelector("[data-testid=thread-item][data-thread-id='" + threadId + "']")).isEmpty() ? true : null);

        browser.navigate().refresh();

        awaitUserStates("completed", "completed");
        awaitAnswers(first, followUp);
        assertThat(userTexts()).containsExactly(first, followUp);
        assertThat(browser.findElement(By.cssSelector("[data-testid=channel-item][aria-current=page]"))
                .getAttribute("data-channel")).isEqualTo("writer");
        await("the restored thread selected in the list", b -> b.findElements(By.cssSelector(
                "[data-testid=thread-item][aria-current=page][data-thread-id='" + threadId + "']")).size() == 1 ? true : null);
        assertThat(browser.findElement(By.cssSelector("[data-testid=thread-title]")).getText()).isEqualTo(first);
    }

    @Test
    void showsTheAgentsQuestionAndSendsTheNextMessageAsItsAnswer() {
        openChannel("echo");
        WebElement newThread = browser.findElement(By.cssSelector("[data-testid=new-thread-input]"));
        newThread.sendKeys("/ask What is your name?");
        newThread.sendKeys(Keys.ENTER);

        WebElement question = await("the agent's question", b -> b.findElements(
                By.cssSelector("[data-testid=post][data-kind=question]")).stream()
                .filter(p -> text(p).contains("What is your name?")).findFirst().orElse(null));
        assertThat(question.findElements(By.cssSelector("[data-testid=question-answer-input]")))
                .as("an open question offers an answer box").hasSize(1);
        assertThat(question.getText()).contains("your next message in this thread is the answer");
        awaitUserStates("waiting_for_answer");
        assertThat(browser.findElement(By.cssSelector("[data-testid=composer-hint]")).isDisplayed()).isTrue();

        browser.findElement(By.cssSelector("[data-testid=composer-input]")).sendKeys("Ada Lovelace");
        browser.findElement(By.cssSelector("[data-testid=composer-button]")).click();

        await("the agent's answer with the answer's text",
                b -> agentTexts().stream().anyMatch(t -> t.contains("Ada Lovelace")) ? true : null);
        await("the question closed", b -> b.findElements(
                By.cssSelector("[data-testid=post][data-kind=question] [data-testid=question-answer-input]")).isEmpty()
                ? true : null);
        await("the turn completed", b -> browser.findElements(By.cssSelector("[data-testid=post][data-kind=user]"))
                .stream().map(p -> p.getAttribute("data-state")).allMatch("completed"::equals) ? true : null);
    }

    // ---- helpers ----

    private static void openChannel(String channel) {
        browser.get(app.baseUrl() + "/");
        WebElement item = await("the " + channel + " channel", b -> b.findElements(
                By.cssSelector("[data-testid=channel-item][data-channel='" + channel + "']")).stream().findFirst()
                .orElse(null));
        item.click();
        await("the " + channel + " channel selected", b -> b.getCurrentUrl().endsWith("#/channel/" + channel)
                && b.findElement(By.cssSelector("[data-testid=new-thread-input]")).isDisplayed() ? true : null);
    }

    /** Records every text the agent posts show, so the test can tell a streamed answer from a whole one. */
    private static void recordAgentTexts() {
        js("window.__agentTexts = [];"
                + "new MutationObserver(() => {"
                + "  document.querySelectorAll('[data-testid=post][data-kind=agent] [data-testid=post-text]').forEach(e => {"
                + "    const t = e.textContent, seen = window.__agentTexts;"
                + "    if (seen[seen.length - 1] !== t) seen.push(t);"
                + "  });"
                + "}).observe(document.body, {subtree: true, childList: true, characterData: true});");
    }

    /** Waits for one finished agent answer per text, in order, each ending with that text; returns them. */
    private static List<String> awaitAnswers(String... endings) {
        return await("finished agent answers ending with " + List.of(endings), b -> {
            List<WebElement> posts = b.findElements(By.cssSelector("[data-testid=post][data-kind=agent]"));
            if (posts.size() != endings.length) {
                return null;
            }
            List<String> texts = posts.stream().map(p -> text(p.findElement(By.cssSelector("[data-testid=post-text]"))))
                    .toList();
            for (int i = 0; i < endings.length; i++) {
                if (!"completed".equals(posts.get(i).getAttribute("data-state")) || !texts.get(i).endsWith(endings[i])) {
                    return null;
                }
            }
            return texts;
        });
    }

    private static List<String> agentTexts() {
        return postTexts("agent");
    }

    private static List<String> userTexts() {
        return postTexts("user");
    }

    private static List<String> postTexts(String kind) {
        return browser.findElements(By.cssSelector("[data-testid=post][data-kind=" + kind + "] [data-testid=post-text]"))
                .stream().map(WebChatBrowserTest::text).toList();
    }

    private static void awaitUserStates(String... states) {
        await("user posts in states " + List.of(states), b -> b.findElements(
                By.cssSelector("[data-testid=post][data-kind=user]")).stream()
                .map(p -> p.getAttribute("data-state")).toList().equals(List.of(states)) ? true : null);
    }

    private static String text(WebElement e) {
        return Chromium.text(e);
    }

    private static Object js(String script) {
        return Chromium.js(browser, script);
    }

    private static <T> T await(String what, Function<WebDriver, T> condition) {
        return Chromium.await(browser, what, condition);
    }
}
