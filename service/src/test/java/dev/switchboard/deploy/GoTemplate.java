package dev.switchboard.deploy;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A small renderer of exactly the subset of Go's text/template (with Helm's functions) that deploy/helm uses. There
 * is no helm binary here (Debian and npm ship none) and no Java library of Go templates, so the chart is written to
 * this subset and rendered with it; a construct outside it is refused with its template and text, never guessed.
 *
 * <p>The subset: text; {@code {{- ... -}}} whitespace trimming; comments {@code {{/* ... *}}}; actions
 * {@code if}/{@code else}/{@code end}, {@code range} (over a list or a map, with {@code else}), {@code define} and
 * {@code include}; pipelines with {@code |}, parenthesised sub-pipelines, string and integer literals,
 * {@code true}/{@code false}, field chains on dot ({@code .Values.a.b}) and on the root ({@code $}, {@code $.X.y});
 * the functions {@code include toYaml nindent indent quote default not and or eq gt fail}. Truth is Go's (false, 0,
 * nil, empty string, map or list are false).
 *
 * <p>Stricter than Helm on purpose: printing a value that is not set is an error (Helm prints nothing), so a typo
 * in a values path fails the test instead of rendering an empty field.
 */
final class GoTemplate {

    /** A template's parse tree. */
    sealed interface Node permits Text, Action, If, Range {}

    record Text(String text) implements Node {}

    record Action(Expr pipe) implements Node {}

    record If(Expr cond, List<Node> then, List<Node> otherwise) implements Node {}

    record Range(Expr over, List<Node> body, List<Node> otherwise) implements Node {}

    /** An expression: a pipeline of commands, each a function call or one operand. */
    sealed interface Expr permits Pipe, Literal, Field, Call {}

    record Pipe(List<Expr> commands) implements Expr {}

    record Literal(Object value) implements Expr {}

    /** A field chain; {@code root} for {@code $}-chains. */
    record Field(boolean root, List<String> path) implements Expr {}

    record Call(String function, List<Expr> args) implements Expr {}

    private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory()
            .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
            .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES));

    private final Map<String, List<Node>> templates = new TreeMap<>();

    /** Parses a file: its {@code define}s become named templates, its body the template of that file's name. */
    void add(String name, String source) {
        Parser p = new Parser(name, lex(name, source));
        templates.put(name, p.list(true));
    }

    String render(String name, Object data) {
        List<Node> t = templates.get(name);
        if (t == null) {
            throw new IllegalArgumentException("no template named " + name);
        }
        StringBuilder out = new StringBuilder();
        exec(name, t, data, data, out);
        return out.toString();
    }

    // ---- lexing: text and actions, with the trim markers applied to the neighbouring text ----

    private record Token(boolean action, String text) {}

    private static List<Token> lex(String name, String src) {
        List<Token> out = new ArrayList<>();
        int i = 0;
        boolean trimNext = false;
        while (i < src.length()) {
            int open = src.indexOf("{{", i);
            String text = open < 0 ? src.substring(i) : src.substring(i, open);
            if (trimNext) {
                text = text.stripLeading();
            }
            if (open < 0) {
                out.add(new Token(false, text));
                break;
            }
            int start = open + 2;
            boolean trimLeft = src.startsWith("- ", start) || src.startsWith("-\n", start);
            if (trimLeft) {
                text = text.stripTrailing();
                start += 1;
            }
            out.add(new Token(false, text));
            int close = closing(name, src, start);
            String body = src.substring(start, close);
            trimNext = body.endsWith(" -") || body.endsWith("\n-");
            if (trimNext) {
                body = body.substring(0, body.length() - 1);
            }
            body = body.strip();
            if (!(body.startsWith("/*") && body.endsWith("*/"))) {
                out.add(new Token(true, body));
            }
            i = close + 2;
        }
        return out;
    }

    private static int closing(String name, String src, int from) {
        boolean quoted = false;
        for (int j = from; j < src.length() - 1; j++) {
            char c = src.charAt(j);
            if (quoted && c == '\\') {
                j++;
            } else if (c == '"') {
                quoted = !quoted;
            } else if (!quoted && c == '}' && src.charAt(j + 1) == '}') {
                return j;
            }
        }
        throw new IllegalArgumentException(name + ": an action opened at " + from + " is not closed");
    }

    // ---- parsing ----

    private final class Parser {
        private final String name;
        private final List<Token> tokens;
        private int at;
        /** The keyword that ended the last list: "else", "end", or null at the end of the file. */
        private String ended;

        Parser(String name, List<Token> tokens) {
            this.name = name;
            this.tokens = tokens;
        }

        List<Node> list(boolean top) {
            List<Node> nodes = new ArrayList<>();
            while (at < tokens.size()) {
                Token t = tokens.get(at++);
                if (!t.action()) {
                    if (!t.text().isEmpty()) {
                        nodes.add(new Text(t.text()));
                    }
                    continue;
                }
                String a = t.text();
                String word = a.split("\\s+", 2)[0];
                String rest = a.substring(word.length()).strip();
                switch (word) {
                    case "end", "else" -> {
                        if (top) {
                            throw new IllegalArgumentException(name + ": {{" + a + "}} with nothing open");
                        }
                        if (!rest.isEmpty()) {
                            throw new IllegalArgumentException(name + ": {{" + a + "}} is outside the subset");
                        }
                        ended = word;
                        return nodes;
                    }
                    case "if", "range" -> {
                        Expr e = new ExprParser(name, rest).pipeAll();
                        List<Node> body = list(false);
                        List<Node> otherwise = List.of();
                        if ("else".equals(ended)) {
                            otherwise = list(false);
                        }
                        if (!"end".equals(ended)) {
                            throw new IllegalArgumentException(name + ": {{" + a + "}} has no {{end}}");
                        }
                        nodes.add(word.equals("if") ? new If(e, body, otherwise) : new Range(e, body, otherwise));
                    }
                    case "define" -> {
                        Expr n = new ExprParser(name, rest).pipeAll();
                        if (!(n instanceof Pipe p && p.commands().size() == 1 && p.commands().get(0) instanceof Literal l
                                && l.value() instanceof String s)) {
                            throw new IllegalArgumentException(name + ": define needs a quoted name: " + a);
                        }
                        List<Node> body = list(false);
                        if (!"end".equals(ended)) {
                            throw new IllegalArgumentException(name + ": define " + s + " has no {{end}}");
                        }
                        templates.put(s, body);
                    }
                    case "with", "template", "block", "break", "continue" ->
                            throw new IllegalArgumentException(name + ": {{" + word + "}} is outside the subset");
                    default -> nodes.add(new Action(new ExprParser(name, a).pipeAll()));
                }
            }
            if (!top) {
                ended = null;
            }
            return nodes;
        }
    }

    private static final class ExprParser {
        private final String name;
        private final String s;
        private int i;

        ExprParser(String name, String s) {
            this.name = name;
            this.s = s;
        }

        Expr pipeAll() {
            Expr e = pipe();
            skip();
            if (i < s.length()) {
                throw error("unexpected '" + s.substring(i) + "'");
            }
            return e;
        }

        private Pipe pipe() {
            List<Expr> commands = new ArrayList<>();
            commands.add(command());
            skip();
            while (i < s.length() && s.charAt(i) == '|') {
                i++;
                commands.add(command());
                skip();
            }
            return new Pipe(commands);
        }

        private Expr command() {
            List<Expr> operands = new ArrayList<>();
            String function = null;
            skip();
            while (i < s.length() && s.charAt(i) != '|' && s.charAt(i) != ')') {
                char c = s.charAt(i);
                if (operands.isEmpty() && function == null && Character.isLetter(c)) {
                    String w = word();
                    switch (w) {
                        case "true" -> operands.add(new Literal(true));
                        case "false" -> operands.add(new Literal(false));
                        default -> function = w;
                    }
                } else {
                    operands.add(operand());
                }
                skip();
            }
            if (function != null) {
                return new Call(function, operands);
            }
            if (operands.size() != 1) {
                throw error("a command is a function or one value");
            }
            return operands.get(0);
        }

        private Expr operand() {
            char c = s.charAt(i);
            if (c == '(') {
                i++;
                Pipe p = pipe();
                if (i >= s.length() || s.charAt(i) != ')') {
                    throw error("unclosed (");
                }
                i++;
                return p;
            }
            if (c == '"') {
                StringBuilder b = new StringBuilder();
                for (i++; i < s.length() && s.charAt(i) != '"'; i++) {
                    if (s.charAt(i) == '\\') {
                        i++;
                        char e = s.charAt(i);
                        b.append(e == 'n' ? '\n' : e == 't' ? '\t' : e);
                    } else {
                        b.append(s.charAt(i));
                    }
                }
                i++;
                return new Literal(b.toString());
            }
            if (Character.isDigit(c) || c == '-') {
                int from = i++;
                while (i < s.length() && Character.isDigit(s.charAt(i))) {
                    i++;
                }
                return new Literal(Long.parseLong(s.substring(from, i)));
            }
            if (c == '.' || c == '$') {
                boolean root = c == '$';
                if (root) {
                    i++;
                    if (i < s.length() && Character.isLetterOrDigit(s.charAt(i))) {
                        throw error("variables other than $ are outside the subset");
                    }
                }
                List<String> path = new ArrayList<>();
                while (i < s.length() && s.charAt(i) == '.') {
                    i++;
                    if (i < s.length() && (Character.isLetter(s.charAt(i)) || s.charAt(i) == '_')) {
                        path.add(word());
                    }
                }
                return new Field(root, path);
            }
            throw error("unexpected '" + c + "'");
        }

        private String word() {
            int from = i;
            while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_')) {
                i++;
            }
            return s.substring(from, i);
        }

        private void skip() {
            while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
                i++;
            }
        }

        private IllegalArgumentException error(String what) {
            return new IllegalArgumentException(name + ": {{" + s + "}}: " + what);
        }
    }

    // ---- execution ----

    private void exec(String name, List<Node> nodes, Object dot, Object root, StringBuilder out) {
        for (Node n : nodes) {
            if (n instanceof Text t) {
                out.append(t.text());
            } else if (n instanceof Action a) {
                Object v = eval(name, a.pipe(), dot, root);
                if (v == null) {
                    throw new IllegalArgumentException(name + ": " + a.pipe() + " is not set (Helm would print nothing)");
                }
                out.append(print(v));
            } else if (n instanceof If f) {
                exec(name, truthy(eval(name, f.cond(), dot, root)) ? f.then() : f.otherwise(), dot, root, out);
            } else if (n instanceof Range r) {
                Object over = eval(name, r.over(), dot, root);
                List<Object> items = new ArrayList<>();
                if (over instanceof List<?> l) {
                    items.addAll(l);
                } else if (over instanceof Map<?, ?> m) {
                    new TreeMap<>(m).values().forEach(items::add);
                } else if (over != null) {
                    throw new IllegalArgumentException(name + ": range over " + over.getClass().getSimpleName());
                }
                if (items.isEmpty()) {
                    exec(name, r.otherwise(), dot, root, out);
                }
                for (Object item : items) {
                    exec(name, r.body(), item, root, out);
                }
            }
        }
    }

    private Object eval(String name, Expr e, Object dot, Object root) {
        if (e instanceof Literal l) {
            return l.value();
        }
        if (e instanceof Field f) {
            return field(f.root() ? root : dot, f.path());
        }
        if (e instanceof Call c) {
            return call(name, c.function(), c.args(), dot, root, null, false);
        }
        Pipe p = (Pipe) e;
        Object piped = eval(name, p.commands().get(0), dot, root);
        for (Expr c : p.commands().subList(1, p.commands().size())) {
            if (!(c instanceof Call call)) {
                throw new IllegalArgumentException(name + ": only a function takes a piped value: " + c);
            }
            piped = call(name, call.function(), call.args(), dot, root, piped, true);
        }
        return piped;
    }

    private Object call(String name, String fn, List<Expr> argExprs, Object dot, Object root, Object piped,
            boolean isPiped) {
        List<Object> a = new ArrayList<>();
        for (Expr x : argExprs) {
            a.add(eval(name, x, dot, root));
        }
        if (isPiped) {
            a.add(piped);
        }
        return switch (fn) {
            case "include" -> {
                arity(name, fn, a, 2);
                String t = (String) a.get(0);
                List<Node> body = templates.get(t);
                if (body == null) {
                    throw new IllegalArgumentException(name + ": include of an undefined template " + t);
                }
                StringBuilder out = new StringBuilder();
                exec(t, body, a.get(1), a.get(1), out);
                yield out.toString();
            }
            case "toYaml" -> {
                arity(name, fn, a, 1);
                try {
                    yield YAML.writeValueAsString(a.get(0)).stripTrailing();
                } catch (Exception ex) {
                    throw new IllegalArgumentException(name + ": toYaml: " + ex.getMessage(), ex);
                }
            }
            case "nindent", "indent" -> {
                arity(name, fn, a, 2);
                String pad = " ".repeat(((Number) a.get(0)).intValue());
                String text = pad + print(a.get(1)).replace("\n", "\n" + pad);
                yield fn.equals("nindent") ? "\n" + text : text;
            }
            case "quote" -> {
                arity(name, fn, a, 1);
                yield "\"" + print(a.get(0)).replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
            }
            case "default" -> {
                arity(name, fn, a, 2);
                yield truthy(a.get(1)) ? a.get(1) : a.get(0);
            }
            case "not" -> {
                arity(name, fn, a, 1);
                yield !truthy(a.get(0));
            }
            case "and" -> {
                Object last = null;
                for (Object x : a) {
                    last = x;
                    if (!truthy(x)) {
                        break;
                    }
                }
                yield last;
            }
            case "or" -> {
                Object last = null;
                for (Object x : a) {
                    last = x;
                    if (truthy(x)) {
                        break;
                    }
                }
                yield last;
            }
            case "eq" -> {
                arity(name, fn, a, 2);
                yield Objects.equals(normal(a.get(0)), normal(a.get(1)));
            }
            case "gt" -> {
                arity(name, fn, a, 2);
                if (!(a.get(0) instanceof Number x) || !(a.get(1) instanceof Number y)) {
                    throw new IllegalArgumentException(name + ": gt compares numbers: " + a);
                }
                yield x.longValue() > y.longValue();
            }
            case "fail" -> throw new ChartFailed(print(a.get(0)));
            default -> throw new IllegalArgumentException(name + ": the function " + fn + " is outside the subset");
        };
    }

    /** What {@code fail} stops rendering with: a values case the chart refuses. */
    static final class ChartFailed extends RuntimeException {
        ChartFailed(String message) {
            super(message);
        }
    }

    private static void arity(String name, String fn, List<Object> a, int n) {
        if (a.size() != n) {
            throw new IllegalArgumentException(name + ": " + fn + " takes " + n + " arguments, got " + a.size());
        }
    }

    private static Object normal(Object o) {
        return o instanceof Number n ? (Object) n.longValue() : o;
    }

    private static Object field(Object from, List<String> path) {
        Object v = from;
        for (String p : path) {
            if (v == null) {
                return null;
            }
            if (!(v instanceof Map<?, ?> m)) {
                throw new IllegalArgumentException("." + String.join(".", path) + ": ." + p + " of a "
                        + v.getClass().getSimpleName());
            }
            v = m.get(p);
        }
        return v;
    }

    static boolean truthy(Object v) {
        if (v == null) {
            return false;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof Number n) {
            return n.doubleValue() != 0;
        }
        if (v instanceof String s) {
            return !s.isEmpty();
        }
        if (v instanceof Map<?, ?> m) {
            return !m.isEmpty();
        }
        if (v instanceof List<?> l) {
            return !l.isEmpty();
        }
        return true;
    }

    private static String print(Object v) {
        if (v == null) {
            return "";
        }
        if (v instanceof Map<?, ?> || v instanceof List<?>) {
            throw new IllegalArgumentException("printing a " + v.getClass().getSimpleName() + " (use toYaml): " + v);
        }
        return String.valueOf(v);
    }
}
