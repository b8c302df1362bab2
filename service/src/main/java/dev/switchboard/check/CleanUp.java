package dev.switchboard.check;

import dev.switchboard.check.AgentCalls.Outcome;
import dev.switchboard.client.AgentEndpoint;
import dev.switchboard.protocol.ProtocolVersion;
import dev.switchboard.protocol.model.ListTasksParams;
import dev.switchboard.protocol.model.ListTasksResult;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.protocol.model.TaskState;
import java.util.Map;

/** Cancels every task the checker started that it did not see end (paused ones too): the agent is left as found. */
final class CleanUp {

    private final AgentCalls calls;
    private final StartedTasks started;

    CleanUp(AgentCalls calls, StartedTasks started) {
        this.calls = calls;
        this.started = started;
    }

    void run() {
        AgentEndpoint endpoint = calls.endpoint();
        if (endpoint == null) {
            return;
        }
        if (endpoint.version() == ProtocolVersion.V1_0) {
            // the contexts the checker made: a task the agent started there on its own is the checker's doing too
            for (String contextId : started.contexts()) {
                Outcome<ListTasksResult> listed = calls.call("ListTasks", calls.client().listTasks(endpoint,
                        new ListTasksParams(contextId, null, SessionProbes.LIST_PAGE_SIZE, null, 0, null, null, null)));
                if (listed.value() != null) {
                    listed.value().tasks().stream().filter(t -> !t.state().isTerminal()).forEach(started::adopt);
                }
            }
        }
        for (Map.Entry<String, TaskState> e : started.tasks()) {
            if (e.getValue() != null && e.getValue().isTerminal()) {
                continue;
            }
            String taskId = e.getKey();
            Outcome<Task> read = calls.call("GetTask", calls.client().getTask(endpoint, taskId, 0));
            if (read.value() != null && read.value().state().isTerminal()) {
                continue;
            }
            Outcome<Task> c = calls.call("CancelTask", calls.client().cancelTask(endpoint, taskId));
            if (c.value() != null && !started.wasCancelled(taskId)) {
                started.cancelled(taskId);
            }
        }
    }
}
