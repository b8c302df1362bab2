package dev.switchboard.config;

import dev.switchboard.config.FieldSchema.Flag;
import dev.switchboard.config.FieldSchema.Fraction;
import dev.switchboard.config.FieldSchema.Obj;
import dev.switchboard.config.FieldSchema.ObjectList;
import dev.switchboard.config.FieldSchema.Span;
import dev.switchboard.config.FieldSchema.Text;
import dev.switchboard.config.FieldSchema.TextList;
import dev.switchboard.config.FieldSchema.TextMap;
import dev.switchboard.config.FieldSchema.WholeNumber;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The reference tables of {@code docs/configuration.md}, one per kind, from {@link ResourceSchemas}. The page is
 * hand-written around them: the generator rewrites only what lies between a
 * {@code <!-- generated:begin kind=X -->} line and the next {@code <!-- generated:end -->}, so the prose stays, and
 * every kind must have its block (a kind added to the schema without one fails here, not silently).
 */
public final class ConfigurationDoc {

    /** Every kind the page documents, Server first: it is the one every file may have. */
    public static final List<ResourceKind> KINDS = List.of(ResourceSchemas.SERVER, ResourceSchemas.AGENT_BACKEND,
            ResourceSchemas.BINDING, ResourceSchemas.SLACK_APP, ResourceSchemas.TRIGGER, ResourceSchemas.ACCESS_POLICY);

    private static final Pattern BLOCK = Pattern.compile(
            "(<!-- generated:begin kind=(\\w+) -->\\n)(.*?)(<!-- generated:end -->)", Pattern.DOTALL);

    private ConfigurationDoc() {}

    /** {@code page} with every generated block rewritten from the schema. */
    public static String render(String page) {
        Matcher m = BLOCK.matcher(page);
        StringBuilder out = new StringBuilder();
        Set<String> seen = new LinkedHashSet<>();
        while (m.find()) {
            String kind = m.group(2);
            ResourceKind k = KINDS.stream().filter(x -> x.kind().equals(kind)).findFirst()
                    .orElseThrow(() -> new IllegalArgumentException("no kind " + kind + " in the schema"));
            if (!seen.add(kind)) {
                throw new IllegalArgumentException("two generated blocks for " + kind);
            }
            m.appendReplacement(out, Matcher.quoteReplacement(m.group(1) + table(k) + m.group(4)));
        }
        m.appendTail(out);
        for (ResourceKind k : KINDS) {
            if (!seen.contains(k.kind())) {
                throw new IllegalArgumentException("the page has no <!-- generated:begin kind=" + k.kind() + " --> block");
            }
        }
        return out.toString();
    }

    /** The kind's fields, one row each, in the schema's order; nested fields by their path under spec. */
    public static String table(ResourceKind kind) {
        StringBuilder out = new StringBuilder();
        out.append(cell(kind.description())).append("\n\n");
        out.append("| Field | Type | Default | Limits | Allowed values | Description |\n");
        out.append("|---|---|---|---|---|---|\n");
        rows(kind.spec(), "", out);
        return out.toString();
    }

    private static void rows(Obj o, String prefix, StringBuilder out) {
        o.properties().forEach((name, f) -> {
            String path = prefix + name;
            List<String> limits = new ArrayList<>();
            if (o.required().contains(name)) {
                limits.add("required");
            }
            limits.addAll(limits(f));
            out.append("| `").append(path).append("` | ").append(type(f)).append(" | ").append(defaultOf(f))
                    .append(" | ").append(cell(String.join("; ", limits))).append(" | ").append(allowed(f))
                    .append(" | ").append(cell(f.description())).append(" |\n");
            if (f instanceof Obj nested) {
                rows(nested, path + ".", out);
            } else if (f instanceof ObjectList l) {
                rows(l.items(), path + "[].", out);
            }
        });
    }

    private static String type(FieldSchema f) {
        if (f instanceof Text) {
            return "string";
        }
        if (f instanceof WholeNumber) {
            return "integer";
        }
        if (f instanceof Fraction) {
            return "number";
        }
        if (f instanceof Flag) {
            return "boolean";
        }
        if (f instanceof Span) {
            return "duration";
        }
        if (f instanceof TextList) {
            return "list of strings";
        }
        if (f instanceof TextMap) {
            return "map of strings";
        }
        return f instanceof ObjectList ? "list of objects" : "object";
    }

    private static String defaultOf(FieldSchema f) {
        Object d = null;
        if (f instanceof Text t) {
            d = t.defaultValue();
        } else if (f instanceof WholeNumber w) {
            d = w.defaultValue();
        } else if (f instanceof Fraction r && r.defaultValue() != null) {
            d = plain(r.defaultValue());
        } else if (f instanceof Flag b) {
            d = b.defaultValue();
        } else if (f instanceof Span s) {
            d = s.defaultValue();
        }
        return d == null ? "" : "`" + String.valueOf(d).replace("|", "\\|") + "`";
    }

    private static List<String> limits(FieldSchema f) {
        List<String> out = new ArrayList<>();
        if (f instanceof WholeNumber w) {
            out.add("at least " + w.minimum());
        } else if (f instanceof Fraction r) {
            out.add("from " + plain(r.minimum()) + " to " + plain(r.maximum()));
        } else if (f instanceof Span) {
            out.add("longer than 0");
        } else if (f instanceof TextList l) {
            if (l.minItems() > 0) {
                out.add("at least " + l.minItems() + (l.minItems() == 1 ? " item" : " items"));
            }
            if (l.itemPattern() != null) {
                out.add("each matches `" + l.itemPattern() + "`");
            }
        } else if (f instanceof Obj o && !o.exactlyOne().isEmpty()) {
            out.add("exactly one of " + String.join(", ", o.exactlyOne()));
        }
        return out;
    }

    private static String allowed(FieldSchema f) {
        if (f instanceof Text t && !t.allowed().isEmpty()) {
            return String.join(", ", t.allowed().stream().map(v -> "`" + v + "`").toList());
        }
        return "";
    }

    /** Text fit for one table cell: no line breaks; pipes, angle brackets and stars shown as written, not as Markdown. */
    private static String cell(String text) {
        return text.replace("\n", " ").replace("|", "\\|").replace("<", "\\<").replace("*", "\\*");
    }

    private static String plain(double d) {
        return d == Math.rint(d) ? String.valueOf((long) d) : String.valueOf(d);
    }

    /** Rewrites the generated blocks of the page given (default {@code docs/configuration.md}) in place. */
    public static void main(String[] args) {
        Path page = Path.of(args.length > 0 ? args[0] : "docs/configuration.md");
        try {
            Files.writeString(page, render(Files.readString(page)));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
