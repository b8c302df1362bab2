package dev.switchboard.config;

import java.util.List;

/**
 * A kind of the {@code switchboard.dev/v1} group as Kubernetes knows it: its names, its {@code spec} and the columns
 * {@code kubectl get} prints. Every kind also has a {@code status} with conditions, the same for all (see {@link CrdGenerator}).
 */
public record ResourceKind(String kind, String plural, String singular, List<String> shortNames, String description,
        FieldSchema.Obj spec, List<Column> columns) {

    public static final String GROUP = "switchboard.dev";
    public static final String VERSION = "v1";

    public ResourceKind {
        shortNames = List.copyOf(shortNames);
        columns = List.copyOf(columns);
    }

    public String crdName() {
        return plural + "." + GROUP;
    }

    /** A printer column: {@code type} is string, integer, boolean or date. */
    public record Column(String name, String type, String jsonPath, String description) {}
}
