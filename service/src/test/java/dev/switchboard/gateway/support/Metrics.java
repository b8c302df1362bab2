package dev.switchboard.gateway.support;

import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads samples out of a Prometheus text scrape. */
public final class Metrics {

    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\\{(.*)\\})?\\s+(\\S+).*$");
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");

    private final String text;

    public Metrics(String text) {
        this.text = text;
    }

    public String text() {
        return text;
    }

    /**
     * The sum of the samples called {@code name} whose labels include all the given pairs; 0 when
     * there is none.
     */
    public double sum(String name, String... labelPairs) {
        double total = 0;
        for (String line : text.split("\n")) {
            if (line.startsWith("#")) {
                continue;
            }
            Matcher m = SAMPLE.matcher(line);
            if (!m.matches() || !m.group(1).equals(name)) {
                continue;
            }
            Map<String, String> labels = labels(m.group(2));
            boolean all = true;
            for (int i = 0; i < labelPairs.length; i += 2) {
                if (!labelPairs[i + 1].equals(labels.get(labelPairs[i]))) {
                    all = false;
                    break;
                }
            }
            if (all) {
                total += Double.parseDouble(m.group(3));
            }
        }
        return total;
    }

    /** True when at least one sample called {@code name} carries the given labels. */
    public boolean has(String name, String... labelPairs) {
        for (String line : text.split("\n")) {
            Matcher m = SAMPLE.matcher(line);
            if (!line.startsWith("#") && m.matches() && m.group(1).equals(name)) {
                Map<String, String> labels = labels(m.group(2));
                boolean all = true;
                for (int i = 0; i < labelPairs.length; i += 2) {
                    all &= labelPairs[i + 1].equals(labels.get(labelPairs[i]));
                }
                if (all) {
                    return true;
                }
            }
        }
        return false;
    }

    private static Map<String, String> labels(String group) {
        Map<String, String> labels = new HashMap<>();
        if (group != null) {
            Matcher l = LABEL.matcher(group);
            while (l.find()) {
                labels.put(l.group(1), l.group(2));
            }
        }
        return labels;
    }
}
