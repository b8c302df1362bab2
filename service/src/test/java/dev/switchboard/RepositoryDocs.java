package dev.switchboard;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** The repository's prose for tests that hold it to the code: README.md, then every page under docs/, in name order. */
public final class RepositoryDocs {
    private RepositoryDocs() {
    }

    /** README.md and the docs/ pages of the repository at {@code root}, one after the other. */
    public static String text(Path root) {
        StringBuilder all = new StringBuilder();
        for (Path page : pages(root)) {
            try {
                all.append(Files.readString(page)).append('\n');
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return all.toString();
    }

    /** README.md, then docs/*.md sorted by name. */
    public static List<Path> pages(Path root) {
        List<Path> pages = new ArrayList<>();
        pages.add(root.resolve("README.md"));
        try (Stream<Path> docs = Files.list(root.resolve("docs"))) {
            docs.filter(p -> p.getFileName().toString().endsWith(".md")).sorted().forEach(pages::add);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pages;
    }
}
