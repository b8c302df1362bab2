package dev.switchboard.bridge.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The engine is the contract and nothing else: it imports only the protocol model, the JDK and
 * itself. No client, store, Jackson or Vert.x, imported or written out in full.
 */
class EngineImportsTest {

    private static final Path ENGINE = Path.of("src/main/java/dev/switchboard/bridge/engine");
    private static final Pattern IMPORT = Pattern.compile("^import\\s+(?:static\\s+)?([\\w.]+)", Pattern.MULTILINE);
    private static final Pattern QUALIFIED = Pattern.compile("\\b((?:com|org|io|javax|jakarta|dev)\\.[a-z]\\w*(?:\\.\\w+)*)");
    private static final List<String> ALLOWED = List.of("java.", "dev.switchboard.protocol.", "dev.switchboard.bridge.engine.");

    @Test
    void theEngineImportsOnlyProtocolAndJava() throws IOException {
        List<String> offences = new ArrayList<>();
        List<Path> sources;
        try (Stream<Path> files = Files.list(ENGINE)) {
            sources = files.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
        assertThat(sources).as("the engine's sources").isNotEmpty();
        for (Path file : sources) {
            String code = Files.readString(file);
            Matcher imports = IMPORT.matcher(code);
            while (imports.find()) {
                if (!allowed(imports.group(1))) {
                    offences.add(file.getFileName() + " imports " + imports.group(1));
                }
            }
            Matcher names = QUALIFIED.matcher(withoutComments(code).replaceAll("(?m)^(package|import) .*$", ""));
            while (names.find()) {
                if (!allowed(names.group(1))) {
                    offences.add(file.getFileName() + " names " + names.group(1));
                }
            }
        }
        assertThat(offences).isEmpty();
    }

    private static boolean allowed(String name) {
        return ALLOWED.stream().anyMatch(name::startsWith);
    }

    /** The code without comments and string literals, where a name is only text. */
    private static String withoutComments(String code) {
        StringBuilder out = new StringBuilder(code.length());
        int i = 0;
        while (i < code.length()) {
            if (code.startsWith("/*", i)) {
                int end = code.indexOf("*/", i + 2);
                i = end < 0 ? code.length() : end + 2;
            } else if (code.startsWith("//", i)) {
                int end = code.indexOf('\n', i);
                i = end < 0 ? code.length() : end;
            } else if (code.charAt(i) == '"') {
                i++;
                while (i < code.length() && code.charAt(i) != '"') {
                    i += code.charAt(i) == '\\' ? 2 : 1;
                }
                i++;
                out.append("\"\"");
            } else {
                out.append(code.charAt(i++));
            }
        }
        return out.toString();
    }
}
