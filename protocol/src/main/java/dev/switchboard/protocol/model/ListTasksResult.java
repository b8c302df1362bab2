package dev.switchboard.protocol.model;

import java.util.List;

/** Result of ListTasks. {@code nextPageToken} is "" on the last page and always written. */
public record ListTasksResult(List<Task> tasks, String nextPageToken, int pageSize, int totalSize) {

    public ListTasksResult {
        tasks = tasks == null ? List.of() : List.copyOf(tasks);
        nextPageToken = nextPageToken == null ? "" : nextPageToken;
    }
}
