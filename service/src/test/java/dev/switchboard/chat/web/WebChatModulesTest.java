package dev.switchboard.chat.web;

import static org.assertj.core.api.Assertions.assertThat;

import dev.switchboard.gateway.support.Harness;
import dev.switchboard.gateway.support.Reply;
import dev.switchboard.testing.ServerTest;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The page's script is ES modules with no build step: one {@code <script type="module">} in the page, each module
 * served as {@code text/javascript} (a browser runs no module served as anything else), imported by relative paths
 * of this server only (no CDN), every file of {@code webchat/} reached from the entry and none missing; and none of
 * them writes HTML (what the page shows is set as text: the agent's words are untrusted).
 */
@ServerTest
class WebChatModulesTest {

    private static final Pattern SCRIPT = Pattern.compile("<script\\b([^>]*)>(.*?)</script>", Pattern.DOTALL);
    private static final Pattern IMPORT = Pattern.compile("^\\s*import\\s[^;]*?from\\s+'([^']+)';", Pattern.MULTILINE);

    @TempDir
    static Path dir;
    static Harness harness;

    @BeforeAll
    static void start() {
        harness = new Harness(dir).start();
    }

    @AfterAll
    static void stop() {
        harness.close();
    }

    @Test
    void thePageLoadsOneModuleAndTheModulesAreServedAsJavaScript() throws Exception {
        Reply page = harness.http().get("/");
        assertThat(page.status()).isEqualTo(200);
        Matcher scripts = SCRIPT.matcher(page.text());
        List<String> tags = new java.util.ArrayList<>();
        while (scripts.find()) {
            assertThat(scripts.group(2)).as("no inline script").isBlank();
            tags.add(scripts.group(1).trim());
        }
        assertThat(tags).containsExactly("type=\"module\" src=\"app.js\"");

        Map<String, String> modules = served("app.js");
        assertThat(modules.keySet()).as("every module of webchat/ is reached from app.js, and nothing else")
                .containsExactlyInAnyOrderElementsOf(resourceModules());
        for (Map.Entry<String, String> m : modules.entrySet()) {
            assertThat(m.getValue()).as(m.getKey())
                    .doesNotContain(".innerHTML").doesNotContain(".outerHTML").doesNotContain("insertAdjacentHTML")
                    .doesNotContain("document.write").doesNotContain("eval(").doesNotContain("import(");
        }
    }

    /** Each module reached from {@code entry} by its static imports → its text, checking how each is served. */
    private static Map<String, String> served(String entry) {
        Map<String, String> modules = new LinkedHashMap<>();
        Deque<String> next = new ArrayDeque<>(List.of(entry));
        while (!next.isEmpty()) {
            String name = next.pop();
            if (modules.containsKey(name)) {
                continue;
            }
            Reply js = harness.http().get("/" + name);
            assertThat(js.status()).as(name).isEqualTo(200);
            assertThat(js.header("Content-Type")).as(name).startsWith("text/javascript");
            modules.put(name, js.text());
            Matcher imports = IMPORT.matcher(js.text());
            while (imports.find()) {
                String spec = imports.group(1);
                assertThat(spec).as("an import of " + name + ": a file beside it").matches("\\./[a-z][a-z0-9-]*\\.js");
                next.add(spec.substring(2));
            }
        }
        return modules;
    }

    private static Set<String> resourceModules() throws IOException, URISyntaxException {
        Path webchat = Path.of(WebChatModulesTest.class.getClassLoader().getResource("webchat/index.html").toURI())
                .getParent();
        try (Stream<Path> files = Files.list(webchat)) {
            return files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".js"))
                    .collect(java.util.stream.Collectors.toCollection(TreeSet::new));
        }
    }
}
