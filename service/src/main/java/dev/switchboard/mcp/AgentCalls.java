package dev.switchboard.mcp;

import dev.switchboard.auth.Caller;
import dev.switchboard.client.A2aAgentClient;
import dev.switchboard.client.AgentEndpoint;
import dev.switchboard.client.CallException;
import dev.switchboard.client.StreamHandle;
import dev.switchboard.client.StreamListener;
import dev.switchboard.gateway.Egress;
import dev.switchboard.gateway.TimeoutChain;
import dev.switchboard.protocol.CallFailure;
import dev.switchboard.protocol.model.Message;
import dev.switchboard.protocol.model.SendMessageParams;
import dev.switchboard.protocol.model.StreamEvent;
import dev.switchboard.protocol.model.Task;
import dev.switchboard.registry.AgentRegistry;
import dev.switchboard.registry.ConcurrencyLimiter;
import dev.switchboard.registry.RegisteredAgent;
import dev.switchboard.tracing.Tracing;
import io.modelcontextprotocol.spec.McpSchema;
import io.vertx.core.Context;
import io.vertx.core.Future;
import io.vertx.core.Vertx;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Mono;
import reactor.core.publisher.MonoSink;

/**
 * The MCP tools' calls to agents, through the chat bridge's A2A client (1.0 and 0.3 alike) and under the gateway's
 * rules: a slot of the agent's concurrency cap for the whole call, refused at once when there is none (G4); the
 * deadline of the timeout chain (G3), the call cut when it passes; the agent's {@code maxResponseBytes} on the text
 * gathered (G6); the egress check per call. A send streams when the agent's card says it can, and each event's new text
 * goes to the client as progress; a client's {@code notifications/cancelled} cuts the stream and sends CancelTask for
 * the task it started, while a client that only went away just cuts the stream. Every outcome is a tool result, never
 * an exception: failures are {@code isError} results naming the problem.
 */
final class AgentCalls {

    private static final Logger LOG = LoggerFactory.getLogger(AgentCalls.class);

    /** Where a send's progress goes: the next chunk of text (already known to be wanted). */
    interface Progress extends Consumer<String> {
        Progress NONE = text -> {};
    }

    private final Vertx vertx;
    private final A2aAgentClient client;
    private final AgentRegistry registry;
    private final AgentTargets targets;
    private final Tracing tracing;
    private final McpMetrics metrics;

    AgentCalls(Vertx vertx, A2aAgentClient client, AgentRegistry registry, Egress egress, String callerIdHeader,
            Tracing tracing, McpMetrics metrics) {
        this.vertx = vertx;
        this.client = client;
        this.registry = registry;
        this.targets = new AgentTargets(client, egress, callerIdHeader);
        this.tracing = tracing;
        this.metrics = metrics;
    }

    void forget(String agentId) {
        targets.forget(agentId);
    }

    /** send_message: the message to the agent, answered when its task ends or waits, or the deadline passes. */
    Mono<McpSchema.CallToolResult> send(String tool, Caller caller, RegisteredAgent agent, Message message,
            Long timeoutSeconds, Progress progress) {
        long deadlineMs = TimeoutChain.millis(timeoutSeconds == null ? null : timeoutSeconds.doubleValue(),
                agent.limits().defaultTimeoutSeconds(), agent.limits().maxTimeoutSeconds());
        return call(tool, agent, (sink, call) -> {
            call.endpoint(caller).onSuccess(e -> targets.streams(agent, e).onComplete(streams -> {
                SendMessageParams params = SendMessageParams.of(message);
                if (call.done) {
                    return;
                }
                if (streams.succeeded() && streams.result()) {
                    call.answering = message.taskId() != null;
                    call.stream = client.sendStreaming(e, params, call.listener(progress));
                } else {
                    client.sendMessage(e, params).onComplete(ar -> {
                        if (ar.succeeded()) {
                            call.answer.addResult(ar.result());
                            call.finish(call.answer.result(), outcome(call.answer));
                        } else {
                            call.fail(ar.cause());
                        }
                    });
                }
            }));
        }, deadlineMs);
    }

    /** get_task: the task as the agent has it now. */
    Mono<McpSchema.CallToolResult> getTask(String tool, Caller caller, RegisteredAgent agent, String taskId) {
        return call(tool, agent, (sink, call) -> call.endpoint(caller)
                .compose(e -> client.getTask(e, taskId, null))
                .onComplete(ar -> call.taskResult(ar.succeeded() ? ar.result() : null, ar.cause())),
                agent.limits().defaultTimeoutSeconds() * 1000);
    }

    /** cancel_task: CancelTask, answered with the task's state after it. */
    Mono<McpSchema.CallToolResult> cancelTask(String tool, Caller caller, RegisteredAgent agent, String taskId) {
        return call(tool, agent, (sink, call) -> call.endpoint(caller)
                .compose(e -> client.cancelTask(e, taskId))
                .onComplete(ar -> call.taskResult(ar.succeeded() ? ar.result() : null, ar.cause())),
                agent.limits().defaultTimeoutSeconds() * 1000);
    }

    private interface Body {
        void run(MonoSink<McpSchema.CallToolResult> sink, Call call);
    }

    /** Takes the slot, arms the deadline, runs the body on a Vert.x context and gives everything back once. */
    private Mono<McpSchema.CallToolResult> call(String tool, RegisteredAgent agent, Body body, long deadlineMs) {
        return Mono.deferContextual(ctx -> {
            AtomicBoolean explicit = ctx.getOrDefault(StreamableHttp.EXPLICIT_CANCEL, new AtomicBoolean());
            return Mono.<McpSchema.CallToolResult>create(sink -> {
                Context context = vertx.getOrCreateContext();
                ConcurrencyLimiter limiter = registry.limiter(agent.id());
                ConcurrencyLimiter.Permit permit = limiter.tryAcquire(agent.limits().maxConcurrency());
                if (permit == null) {
                    metrics.record(tool, agent.id(), McpMetrics.Outcome.BUSY, 0);
                    sink.success(error(agent.id(), "server busy: " + agent.id() + " has " + limiter.inFlight()
                            + " calls in flight; retry shortly"));
                    return;
                }
                Call call = new Call(tool, agent, sink, permit, McpSpan.start(tracing, tool, agent.id()), context);
                sink.onDispose(() -> context.runOnContext(v -> call.disposed(explicit.get())));
                context.runOnContext(v -> {
                    call.timer = vertx.setTimer(deadlineMs, t -> call.timedOut());
                    body.run(sink, call);
                });
            });
        });
    }

    /** One call in flight: ends exactly once, by its answer, a failure, the deadline, or the client. */
    private final class Call {
        final String tool;
        final RegisteredAgent agent;
        final MonoSink<McpSchema.CallToolResult> sink;
        final ConcurrencyLimiter.Permit permit;
        final McpSpan span;
        final Context context;
        final Answer answer;
        final long started = System.nanoTime();
        AgentEndpoint endpoint;
        StreamHandle stream;
        long timer = -1;
        boolean done;
        /** The send answers a task's question: its first events may still show the question it answers. */
        boolean answering;
        /** An event of this call showed the task past any question (working, or done). */
        boolean moved;

        Call(String tool, RegisteredAgent agent, MonoSink<McpSchema.CallToolResult> sink,
                ConcurrencyLimiter.Permit permit, McpSpan span, Context context) {
            this.tool = tool;
            this.agent = agent;
            this.sink = sink;
            this.permit = permit;
            this.span = span;
            this.context = context;
            this.answer = new Answer(agent.id());
        }

        Future<AgentEndpoint> endpoint(Caller caller) {
            return targets.endpoint(agent, caller, span.headers())
                    .onSuccess(e -> endpoint = e)
                    .onFailure(this::fail);
        }

        StreamListener listener(Progress progress) {
            return new StreamListener() {
                @Override
                public void onEvent(StreamEvent event) {
                    if (done) {
                        return;
                    }
                    String added = answer.add(event);
                    if (answer.size() > agent.limits().maxResponseBytes()) {
                        closeStream();
                        finish(error(agent.id(), "response too large: " + agent.id() + "'s answer passed "
                                + agent.limits().maxResponseBytes() + " bytes"), McpMetrics.Outcome.TOO_LARGE);
                        return;
                    }
                    if (!added.isEmpty()) {
                        progress.accept(added);
                    }
                    boolean waiting = answer.state().isInterrupted();
                    if (!waiting) {
                        moved = true;
                    }
                    if (answer.state().isTerminal() || (waiting && (!answering || moved))) {
                        // the answer is whole: the client need not wait for the agent to close the stream
                        closeStream();
                        finish(answer.result(), outcome(answer));
                    }
                }

                @Override
                public void onEnd() {
                    finish(answer.result(), outcome(answer));
                }

                @Override
                public void onFailure(CallFailure failure, boolean afterEvents) {
                    fail(new CallException(failure));
                }
            };
        }

        void taskResult(Task task, Throwable failure) {
            if (task == null) {
                fail(failure);
                return;
            }
            answer.add(task);
            finish(answer.result(), outcome(answer));
        }

        void fail(Throwable cause) {
            if (done) {
                return;
            }
            McpMetrics.Outcome outcome;
            String message;
            if (cause instanceof Egress.Refused) {
                outcome = McpMetrics.Outcome.EGRESS_REFUSED;
                message = "agent address not allowed: " + agent.id();
            } else if (cause instanceof CallException ce) {
                CallFailure f = ce.failure();
                if (f instanceof CallFailure.RpcError rpc) {
                    outcome = McpMetrics.Outcome.AGENT_ERROR;
                    message = "agent error from " + agent.id() + ": " + rpc.code() + " " + clip(rpc.message());
                } else if (f instanceof CallFailure.HttpStatus s) {
                    outcome = s.status() == 504 ? McpMetrics.Outcome.TIMEOUT : McpMetrics.Outcome.AGENT_ERROR;
                    message = s.status() == 504 ? "agent timeout: " + agent.id()
                            : "agent answered HTTP " + s.status() + ": " + agent.id();
                } else if (f instanceof CallFailure.Transport t) {
                    outcome = t.kind() == CallFailure.TransportKind.HEADERS_TIMEOUT ? McpMetrics.Outcome.TIMEOUT
                            : McpMetrics.Outcome.UNREACHABLE;
                    message = (outcome == McpMetrics.Outcome.TIMEOUT ? "agent timeout: " : "agent unreachable: ")
                            + agent.id();
                } else {
                    outcome = McpMetrics.Outcome.AGENT_ERROR;
                    message = "agent answered something that is not A2A: " + agent.id();
                }
            } else {
                outcome = McpMetrics.Outcome.UNREACHABLE;
                message = "agent unreachable: " + agent.id();
            }
            LOG.info("MCP {} to {} failed: {}", tool, agent.id(), cause == null ? "?" : cause.toString());
            McpSchema.CallToolResult result = error(agent.id(), message);
            if (answer.taskId() != null) {
                result = error(agent.id(), message + " (task " + answer.taskId() + "; read it with get_task)");
            }
            finish(result, outcome);
        }

        void timedOut() {
            if (done) {
                return;
            }
            closeStream();
            String more = answer.taskId() == null ? "" : " (task " + answer.taskId() + " may still run; read it with get_task)";
            finish(error(agent.id(), "agent timeout: " + agent.id() + more), McpMetrics.Outcome.TIMEOUT);
        }

        /** The client cancelled ({@code explicit}) or went away, or the result was sent (then done is set). */
        void disposed(boolean explicitCancel) {
            if (done) {
                return;
            }
            closeStream();
            if (explicitCancel && answer.taskId() != null && endpoint != null) {
                // MCP's cancel becomes A2A's: the agent stops the work nobody waits for any more
                client.cancelTask(endpoint, answer.taskId()).onFailure(e ->
                        LOG.info("CancelTask of {} at {} after an MCP cancel failed: {}", answer.taskId(), agent.id(), e.toString()));
            }
            end(explicitCancel ? McpMetrics.Outcome.CANCELLED : McpMetrics.Outcome.CLIENT_GONE);
        }

        void finish(McpSchema.CallToolResult result, McpMetrics.Outcome outcome) {
            if (done) {
                return;
            }
            end(outcome);
            sink.success(result);
        }

        private void end(McpMetrics.Outcome outcome) {
            done = true;
            if (timer >= 0) {
                vertx.cancelTimer(timer);
            }
            permit.release();
            span.end(outcome);
            metrics.record(tool, agent.id(), outcome, System.nanoTime() - started);
        }

        private void closeStream() {
            if (stream != null) {
                stream.close();
                stream = null;
            }
        }
    }

    static McpMetrics.Outcome outcome(Answer a) {
        return a.state().isInterrupted() ? McpMetrics.Outcome.INPUT_REQUIRED : McpMetrics.Outcome.OK;
    }

    /** A tool result that says what went wrong ({@code isError}: the model sees it and can act on it). */
    static McpSchema.CallToolResult error(String agentId, String message) {
        return McpSchema.CallToolResult.builder()
                .addTextContent(message)
                .structuredContent(agentId == null ? Map.of("error", message) : Map.of("agent", agentId, "error", message))
                .isError(true)
                .build();
    }

    /** A new user message: the text, and the context and task it continues (an answer to a question names both). */
    static Message message(String text, String contextId, String taskId) {
        return Message.userText(UUID.randomUUID().toString(), text, contextId, taskId, null);
    }

    private static String clip(String s) {
        if (s == null) {
            return "";
        }
        return s.length() > 300 ? s.substring(0, 300) + "…" : s;
    }
}
