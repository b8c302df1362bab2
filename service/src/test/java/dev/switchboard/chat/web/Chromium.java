package dev.switchboard.chat.web;

import static org.junit.jupiter.api.Assertions.fail;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.StaleElementReferenceException;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

/**
 * The web chat's browser tests' shared part: Debian's headless Chromium driven by Selenium, and waits that say what
 * the page showed when they time out. Waits are generous, for a busy machine.
 */
public final class Chromium {

    public static final String BINARY = "/usr/bin/chromium";
    static final String DRIVER = "/usr/bin/chromedriver";
    public static final Duration WAIT = Duration.ofSeconds(30);

    private Chromium() {}

    /** A headless Chromium with its profile under {@code dir}. */
    public static WebDriver start(Path dir) throws IOException {
        for (String file : List.of(BINARY, DRIVER)) {
            if (!Files.isExecutable(Path.of(file))) {
                fail("The web chat browser tests need Debian's Chromium and its driver, and " + file
                        + " is missing: run apt-get install -y chromium chromium-driver");
            }
        }
        ChromeOptions options = new ChromeOptions();
        options.setBinary(BINARY);
        options.addArguments("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update",
                "--disable-sync", "--window-size=1280,900",
                "--user-data-dir=" + Files.createDirectories(dir.resolve("chromium-profile")));
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(new File(DRIVER))
                .usingAnyFreePort()
                .build();
        return new ChromeDriver(service, options);
    }

    /** Waits until {@code condition} gives a non-null value; on timeout, says what the page showed. */
    public static <T> T await(WebDriver browser, String what, Function<WebDriver, T> condition) {
        return new WebDriverWait(browser, WAIT, Duration.ofMillis(50))
                .ignoring(StaleElementReferenceException.class)
                .withMessage(() -> "waiting for " + what + "; the page at " + browser.getCurrentUrl() + " shows:\n"
                        + describePosts(browser))
                .until(condition::apply);
    }

    /** The element's text as the DOM holds it (getText() would trim and fold whitespace). */
    public static String text(WebElement e) {
        return e.getDomProperty("textContent");
    }

    public static Object js(WebDriver browser, String script, Object... args) {
        return ((JavascriptExecutor) browser).executeScript(script, args);
    }

    static String describePosts(WebDriver browser) {
        try {
            return String.valueOf(js(browser, "return Array.from(document.querySelectorAll('[data-testid=post]')).map(p =>"
                    + " p.dataset.kind + ' [' + (p.dataset.state || '-') + '] '"
                    + " + (p.querySelector('[data-testid=post-text]') || p).textContent.replace(/\\s+/g, ' ').slice(0, 300))"
                    + ".join('\\n') || document.body.innerText.slice(0, 2000);"));
        } catch (RuntimeException e) {
            return "(could not read the page: " + e.getMessage() + ")";
        }
    }
}
