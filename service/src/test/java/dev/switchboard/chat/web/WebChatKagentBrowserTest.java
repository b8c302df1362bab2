package dev.switchboard.chat.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.app.SwitchboardApp;
import dev.switchboard.bridge.support.ConfigYaml;
import dev.switchboard.testing.BrowserTest;
import dev.switchboard.testing.ServerTest;
import dev.switchboard.testing.SwitchboardFixture;
import dev.switchboard.testkit.TestAgentOptions;
import io.vertx.core.Vertx;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Function;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;

/**
 * Issue 11, web chat: a kagent-v1 agent's questions in a real headless Chromium, answered the way a person would:
 * a tool approval with its tool calls and Approve / Reject, ask-user with its choices, and the step cards of the
 * agent's tool calls and results. Against the testkit's kagent mode, served where kagent serves an agent.
 */
@ServerTest
@BrowserTest
class WebChatKagentBrowserTest {

    @TempDir
    static Path dir;

    static Vertx vertx;
    static SwitchboardApp app;
    static WebDriver browser;

    @BeforeAll
    static void start() throws Exception {
        vertx = Vertx.vertx();
        app = SwitchboardFixture.builder().vertx(vertx).kagentAgent("sre", TestAgentOptions.kagent("sre"))
                .yaml(agents -> ConfigYaml.server(dir.resolve("db"), false, ConfigYaml.QUICK_CONTRACT)
                        .kagentBackend("sre", agents.url("sre"), null))
                .start().app();
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
    void approveAToolCallAndSeeTheAgentContinue() {
        startThread("/approve delete_pod {\"name\":\"web-1\",\"namespace\":\"production\"}");

        WebElement card = awaitAnswerable("approval");
        List<WebElement> tools = card.findElements(By.cssSelector("[data-testid=approval-tool]"));
        assertThat(tools).hasSize(1);
        assertThat(text(tools.get(0).findElement(By.cssSelector("[data-testid=approval-tool-name]")))).isEqualTo("delete_pod");
        assertThat(text(tools.get(0).findElement(By.cssSelector("[data-testid=approval-tool-args]"))))
                .as("the arguments, pretty-printed")
                .contains("\"name\": \"web-1\"", "\"namespace\": \"production\"").contains("\n");
        assertThat(text(question())).contains("delete_pod");

        card.findElement(By.cssSelector("[data-testid=approval-approve]")).click();

        awaitAgentAnswer("approved delete_pod: done");
        WebElement call = awaitStep("call", "delete_pod");
        WebElement result = awaitStep("result", "delete_pod");
        assertThat(text(call.findElement(By.cssSelector("summary")))).contains("🔧").contains("delete_pod");
        assertThat(text(result.findElement(By.cssSelector("summary")))).contains("✓").contains("delete_pod");
        assertThat(call.findElement(By.cssSelector("details")).getAttribute("open")).as("folded").isNull();
        call.findElement(By.cssSelector("summary")).click();
        await("the call's arguments unfolded", b -> call.findElement(By.cssSelector("[data-testid=step-detail]"))
                .isDisplayed() ? true : null);
        assertThat(text(call.findElement(By.cssSelector("[data-testid=step-detail]")))).contains("\"name\": \"web-1\"");

        awaitAnswered("approval", "approve", "Approved");
        // the answer, and that it was given, survive a reload: they come from the thread, not from the page's memory
        browser.navigate().refresh();
        awaitAgentAnswer("approved delete_pod: done");
        awaitAnswered("approval", "approve", "Approved");
    }

    @Test
    void rejectAToolCallWithAReason() {
        startThread("/approve scale_up {\"replicas\":40}");
        WebElement card = awaitAnswerable("approval");
        card.findElement(By.cssSelector("[data-testid=approval-reason]")).sendKeys("not during business hours");
        card.findElement(By.cssSelector("[data-testid=approval-reject]")).click();

        awaitAgentAnswer("rejected scale_up: not during business hours");
        awaitAnswered("approval", "reject", "Rejected: not during business hours");
        assertThat(card.findElement(By.cssSelector("[data-testid=approval-reason]")).isEnabled()).isFalse();
    }

    @Test
    void answerTheAgentsChoicesAndSeeThemInItsAnswer() {
        startThread("/askuser");
        WebElement card = awaitAnswerable("ask-user");
        List<WebElement> questions = card.findElements(By.cssSelector("[data-testid=ask-question]"));
        assertThat(questions).hasSize(2);
        assertThat(questions.get(0).findElements(By.cssSelector("input[type=radio]"))).hasSize(3);
        assertThat(questions.get(1).findElements(By.cssSelector("input[type=checkbox]"))).hasSize(3);
        WebElement send = card.findElement(By.cssSelector("[data-testid=ask-send]"));
        assertThat(send.isEnabled()).as("nothing chosen yet").isFalse();

        // one typed line cannot answer two questions: the agent still waits, and so does the card
        WebElement composer = browser.findElement(By.cssSelector("[data-testid=composer-input]"));
        composer.sendKeys("staging");
        composer.sendKeys(Keys.ENTER);
        await("the notice that the form answers several questions", b -> b.findElements(By.cssSelector(
                "[data-testid=post][data-kind=notice] [data-testid=post-text]")).stream().map(Chromium::text)
                .filter(t -> t.contains("answer them with the question's form")).findFirst().orElse(null));
        assertThat(awaitAnswerable("ask-user")).isEqualTo(card);

        choose(questions.get(0), "staging");
        assertThat(send.isEnabled()).as("the second question is still open").isFalse();
        choose(questions.get(1), "lint");
        choose(questions.get(1), "e2e");
        await("Send enabled once every question has an answer", b -> send.isEnabled() ? true : null);
        send.click();

        String answer = awaitAgentAnswer("lint, e2e");
        assertThat(answer).contains("Which namespace should I use? staging").contains("Which checks should run? lint, e2e");
        awaitAnswered("ask-user", "", "staging; lint, e2e");
        assertThat(card.findElements(By.cssSelector("input"))).allSatisfy(i -> assertThat(i.isEnabled()).isFalse());
    }

    @Test
    void agentDataIsTextAndLongArgumentsAreCut() {
        String hostile = "<img src=x onerror=\\\"window.__pwned=1\\\"><b>bold</b>";
        startThread("/approve delete_pod {\"name\":\"" + hostile + "\",\"blob\":\"" + "x".repeat(3000) + "\"}");
        WebElement card = awaitAnswerable("approval");
        WebElement args = card.findElement(By.cssSelector("[data-testid=approval-tool-args]"));
        assertThat(text(args)).contains("<img src=x onerror=").contains("<b>bold</b>").endsWith("…")
                .hasSizeLessThan(1600);
        assertThat(card.findElements(By.cssSelector("img, b"))).as("no markup from the agent").isEmpty();
        assertThat(Chromium.js(browser, "return window.__pwned === undefined;")).isEqualTo(true);
        assertThat(text(card.findElement(By.cssSelector("[data-testid=clipped-note]")))).contains("Showing the first");

        card.findElement(By.cssSelector("[data-testid=show-all]")).click();
        await("all of the arguments", b -> text(args).contains("x".repeat(3000)) ? true : null);
    }

    // ---- helpers ----

    private static void startThread(String text) {
        browser.get(app.baseUrl() + "/#/channel/sre");
        WebElement input = await("the new-thread box of #sre", b -> b.findElements(
                By.cssSelector("[data-testid=new-thread-input]")).stream().filter(WebElement::isDisplayed)
                .filter(WebElement::isEnabled).findFirst().orElse(null));
        String before = browser.getCurrentUrl();
        input.sendKeys(text);
        browser.findElement(By.cssSelector("[data-testid=new-thread-button]")).click();
        await("the new thread open", b -> b.getCurrentUrl().contains("/thread/") && !b.getCurrentUrl().equals(before)
                ? true : null);
    }

    private static WebElement question() {
        return browser.findElement(By.cssSelector("[data-testid=post][data-kind=question]"));
    }

    /** The question's card ({@code approval} or {@code ask-user}) once it takes an answer. */
    private static WebElement awaitAnswerable(String testid) {
        return await("an open " + testid + " card", b -> b.findElements(By.cssSelector(
                "[data-testid=post][data-kind=question] [data-testid=" + testid + "][data-answerable=true]")).stream()
                .findFirst().orElse(null));
    }

    /** Waits for the card to take no more answers and show the one given. */
    private static void awaitAnswered(String testid, String decision, String answer) {
        WebElement card = await("the " + testid + " card answered with " + answer, b -> b.findElements(By.cssSelector(
                "[data-testid=post][data-kind=question] [data-testid=" + testid + "][data-answerable=false]")).stream()
                .filter(c -> text(c.findElement(By.cssSelector("[data-testid=hitl-status]"))).contains(answer))
                .findFirst().orElse(null));
        assertThat(card.getAttribute("data-decision")).isEqualTo(decision);
        assertThat(card.findElements(By.cssSelector("button"))).filteredOn(btn -> !"show-all".equals(btn.getAttribute("data-testid")))
                .isNotEmpty().allSatisfy(btn -> assertThat(btn.isEnabled()).as(btn.getText()).isFalse());
        if (!decision.isEmpty()) {
            assertThat(card.findElement(By.cssSelector("[data-testid=approval-" + decision + "]")).getAttribute("aria-pressed"))
                    .isEqualTo("true");
        }
    }

    private static String awaitAgentAnswer(String containing) {
        return await("a completed agent answer containing " + containing, b -> b.findElements(By.cssSelector(
                "[data-testid=post][data-kind=agent][data-state=completed] [data-testid=post-text]")).stream()
                .map(Chromium::text).filter(t -> t.contains(containing)).findFirst().orElse(null));
    }

    private static WebElement awaitStep(String kind, String tool) {
        return await("a " + kind + " step card of " + tool, b -> b.findElements(By.cssSelector(
                "[data-testid=post][data-kind=step][data-step-kind=" + kind + "]")).stream()
                .filter(s -> text(s.findElement(By.cssSelector("[data-testid=step-name]"))).equals(tool))
                .findFirst().orElse(null));
    }

    private static void choose(WebElement question, String choice) {
        question.findElements(By.cssSelector("[data-testid=ask-choice]")).stream()
                .filter(i -> choice.equals(i.getAttribute("value"))).findFirst().orElseThrow().click();
    }

    private static String text(WebElement e) {
        return Chromium.text(e);
    }

    private static <T> T await(String what, Function<WebDriver, T> condition) {
        return Chromium.await(browser, what, condition);
    }
}
