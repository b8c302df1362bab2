package dev.switchboard.protocol.model;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;

/** An output of a task, identified within the task by {@code artifactId}. */
public record Artifact(
        String artifactId,
        String name,
        String description,
        List<Part> parts,
        ObjectNode metadata,
        List<String> extensions) {

    public Artifact {
        parts = parts == null ? List.of() : List.copyOf(parts);
        extensions = extensions == null ? List.of() : List.copyOf(extensions);
    }

    public static Artifact text(String artifactId, String text) {
        return new Artifact(artifactId, null, null, List.of(Part.text(text)), null, null);
    }
}
