package dev.switchboard.testkit;

import dev.switchboard.protocol.model.ListTasksParams;
import dev.switchboard.protocol.model.ListTasksResult;
import dev.switchboard.protocol.model.Task;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/** The agent's tasks, in memory, for as long as the agent lives. */
final class TaskStore {

    static final int DEFAULT_PAGE_SIZE = 50;
    static final int MAX_PAGE_SIZE = 100;

    /** Newest status first, then newest task first: the order ListTasks pages through. */
    private static final Comparator<Entry> NEWEST_FIRST =
            Comparator.comparing((Entry e) -> e.task().status().timestamp()).thenComparingLong(Entry::sequence).reversed();

    private final Map<String, AgentTask> tasks = new ConcurrentHashMap<>();
    private final AtomicLong sequence = new AtomicLong();

    AgentTask create(String contextId) {
        String id = "task-" + UUID.randomUUID();
        AgentTask task = new AgentTask(id, contextId, sequence.incrementAndGet());
        tasks.put(id, task);
        return task;
    }

    Optional<AgentTask> find(String id) {
        return Optional.ofNullable(id == null ? null : tasks.get(id));
    }

    /** The task whose history holds a user message with this messageId. */
    Optional<AgentTask> findByMessageId(String messageId) {
        return tasks.values().stream().filter(t -> t.holds(messageId)).findFirst();
    }

    /** Forgets a task, as an agent that restarted would. */
    void forget(String id) {
        tasks.remove(id);
    }

    /**
     * One page of ListTasks.
     *
     * @throws IllegalArgumentException naming the bad parameter (pageSize out of 1..100, unknown pageToken)
     */
    ListTasksResult list(ListTasksParams params) {
        int pageSize = params.pageSize() == null || params.pageSize() == 0 ? DEFAULT_PAGE_SIZE : params.pageSize();
        if (pageSize < 1 || pageSize > MAX_PAGE_SIZE) {
            throw new IllegalArgumentException("pageSize must be 1.." + MAX_PAGE_SIZE + ", got " + pageSize);
        }
        List<Entry> matches = new ArrayList<>();
        for (AgentTask task : tasks.values()) {
            Entry entry = new Entry(task.snapshot(params.historyLength(), Boolean.TRUE.equals(params.includeArtifacts())),
                    task.sequence());
            if (matches(entry.task(), params)) {
                matches.add(entry);
            }
        }
        matches.sort(NEWEST_FIRST);
        int start = 0;
        if (params.pageToken() != null && !params.pageToken().isEmpty()) {
            start = afterCursor(matches, params.pageToken());
        }
        int end = Math.min(matches.size(), start + pageSize);
        List<Task> page = matches.subList(start, end).stream().map(Entry::task).toList();
        String next = end < matches.size() ? cursor(matches.get(end - 1)) : "";
        return new ListTasksResult(page, next, pageSize, matches.size());
    }

    private static boolean matches(Task task, ListTasksParams params) {
        if (params.contextId() != null && !params.contextId().isEmpty() && !params.contextId().equals(task.contextId())) {
            return false;
        }
        if (params.status() != null && params.status() != task.state()) {
            return false;
        }
        return params.statusTimestampAfter() == null || !task.status().timestamp().isBefore(params.statusTimestampAfter());
    }

    /** The cursor names the last task of a page; the next page starts after it. */
    private static String cursor(Entry last) {
        return Base64.getUrlEncoder().withoutPadding().encodeToString(last.task().id().getBytes(StandardCharsets.UTF_8));
    }

    private static int afterCursor(List<Entry> matches, String token) {
        String taskId;
        try {
            taskId = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("pageToken is not a token this agent issued: " + token);
        }
        for (int i = 0; i < matches.size(); i++) {
            if (matches.get(i).task().id().equals(taskId)) {
                return i + 1;
            }
        }
        throw new IllegalArgumentException("pageToken is not a token this agent issued: " + token);
    }

    private record Entry(Task task, long sequence) {}
}
