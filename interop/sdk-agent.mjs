#!/usr/bin/env node
// A real @a2a-js/sdk 1.3.0 echo agent serving A2A 1.0 and 0.3 (legacyCompat) over JSON-RPC.
//
//   node sdk-agent.mjs [--port 0] [--host 127.0.0.1] [--delay-ms 0]
//
// Prints one line {"port":N,"cardUrl":"…","rpcUrl":"…"} on stdout once it listens, then serves until killed.
// Card: GET /.well-known/agent-card.json (pure 1.0 with `A2A-Version: 1.0`, hybrid 0.3+1.0 without).
// JSON-RPC: POST /a2a/jsonrpc (1.0 PascalCase methods and 0.3 `message/send` style methods).
//
// Behaviour, chosen by the first text part of the user message:
//   default         Task(submitted, history=[user message]) → status working → artifact "echo" with the
//                   echoed text (lastChunk) → status completed.
//   "message:<t>"   a direct Message reply "<t>" (no task).
//   "input:<t>"     Task → status input-required with a question message (the task stays open; a follow-up
//                   message with the same taskId gets the default echo flow on that task).
//   "fail:<t>"      Task → working → failed with status message "<t>".
//   "slow:<t>"      Task → working, then waits up to 30 s for CancelTask (→ canceled); otherwise completes.
// With --delay-ms N each event after the first is published N ms after the previous one.

import http from 'node:http';
import express from 'express';
import { AGENT_CARD_PATH, Role, TaskState } from '@a2a-js/sdk';
import { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } from '@a2a-js/sdk/server';
import { agentCardHandler, jsonRpcHandler, UserBuilder } from '@a2a-js/sdk/server/express';

function parseArgs(argv) {
  const out = { port: 0, host: '127.0.0.1', delayMs: 0 };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = argv[i + 1];
    if (a === '--port') { out.port = Number(v); i++; }
    else if (a === '--host') { out.host = v; i++; }
    else if (a === '--delay-ms') { out.delayMs = Number(v); i++; }
    else if (a === '--help' || a === '-h') {
      process.stderr.write('usage: node sdk-agent.mjs [--port 0] [--host 127.0.0.1] [--delay-ms 0]\n');
      process.exit(0);
    } else {
      process.stderr.write(`unknown argument: ${a}\n`);
      process.exit(2);
    }
  }
  return out;
}

const args = parseArgs(process.argv.slice(2));
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function textPart(text) {
  return { content: { $case: 'text', value: text }, metadata: undefined, filename: '', mediaType: '' };
}

function agentMessage(text, taskId, contextId) {
  return {
    messageId: crypto.randomUUID(),
    contextId,
    taskId: taskId ?? '',
    role: Role.ROLE_AGENT,
    parts: [textPart(text)],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function status(state, message) {
  return { state, message, timestamp: new Date().toISOString() };
}

class EchoExecutor {
  constructor(delayMs) {
    this.delayMs = delayMs;
    this.cancelled = new Set();
  }

  cancelTask = async (taskId, _eventBus) => {
    this.cancelled.add(taskId);
  };

  async execute(ctx, bus) {
    const msg = ctx.userMessage;
    const taskId = ctx.taskId;
    const contextId = ctx.contextId;
    const first = msg.parts.find((p) => p.content?.$case === 'text');
    const text = first ? first.content.value : '';
    const pause = () => (this.delayMs > 0 ? sleep(this.delayMs) : Promise.resolve());
    const statusUpdate = (state, message) =>
      bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: status(state, message), metadata: undefined }));

    if (text.startsWith('message:')) {
      bus.publish(AgentEvent.message(agentMessage(text.slice('message:'.length), undefined, contextId)));
      return;
    }

    try {
      if (ctx.task) {
        bus.publish(AgentEvent.task(ctx.task));
      } else {
        bus.publish(AgentEvent.task({
          id: taskId,
          contextId,
          status: status(TaskState.TASK_STATE_SUBMITTED, undefined),
          artifacts: [],
          history: [msg],
          metadata: undefined,
        }));
      }
      await pause();

      if (text.startsWith('input:') && !ctx.task) {
        statusUpdate(TaskState.TASK_STATE_INPUT_REQUIRED, agentMessage(text.slice('input:'.length) || 'Need more input?', taskId, contextId));
        return;
      }

      statusUpdate(TaskState.TASK_STATE_WORKING, agentMessage('Working…', taskId, contextId));
      await pause();

      if (text.startsWith('fail:')) {
        statusUpdate(TaskState.TASK_STATE_FAILED, agentMessage(text.slice('fail:'.length) || 'failed', taskId, contextId));
        return;
      }

      if (text.startsWith('slow:')) {
        const deadline = Date.now() + 30_000;
        while (Date.now() < deadline && !this.cancelled.has(taskId)) await sleep(50);
        if (this.cancelled.has(taskId)) {
          statusUpdate(TaskState.TASK_STATE_CANCELED, undefined);
          return;
        }
      }

      bus.publish(AgentEvent.artifactUpdate({
        taskId,
        contextId,
        artifact: {
          artifactId: 'echo',
          name: 'echo',
          description: 'The echoed text',
          parts: [textPart(text)],
          metadata: undefined,
          extensions: [],
        },
        append: false,
        lastChunk: true,
        metadata: undefined,
      }));
      await pause();
      statusUpdate(TaskState.TASK_STATE_COMPLETED, undefined);
    } finally {
      this.cancelled.delete(taskId);
    }
  }
}

const app = express();
const server = http.createServer(app);
server.on('error', (err) => {
  process.stderr.write(`sdk-agent: ${err.message}\n`);
  process.exit(1);
});
server.listen(args.port, args.host, () => {
  const port = server.address().port;
  const hostForUrl = args.host.includes(':') ? `[${args.host}]` : args.host;
  const base = `http://${hostForUrl}:${port}`;
  const rpcUrl = `${base}/a2a/jsonrpc`;
  const card = {
    name: 'SDK Echo Agent',
    description: 'An @a2a-js/sdk 1.3.0 echo agent serving A2A 1.0 and 0.3 (legacyCompat) over JSON-RPC.',
    supportedInterfaces: [
      { url: rpcUrl, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
      { url: rpcUrl, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' },
    ],
    provider: { organization: 'Switchboard interop', url: 'https://example.com/switchboard' },
    version: '1.0.0',
    documentationUrl: '',
    capabilities: { streaming: true, pushNotifications: false, extensions: [], extendedAgentCard: false },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ['text/plain'],
    defaultOutputModes: ['text/plain'],
    skills: [{
      id: 'echo',
      name: 'Echo',
      description: 'Echoes the text it receives as an artifact',
      tags: ['echo', 'test'],
      examples: ['hello'],
      inputModes: ['text/plain'],
      outputModes: ['text/plain'],
      securityRequirements: [],
    }],
    signatures: [],
  };
  const requestHandler = new DefaultRequestHandler(card, new InMemoryTaskStore(), new EchoExecutor(args.delayMs));
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: requestHandler, legacyCompat: { enabled: true } }));
  app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication, legacyCompat: { enabled: true } }));
  process.stdout.write(JSON.stringify({ port, cardUrl: `${base}/${AGENT_CARD_PATH}`, rpcUrl }) + '\n');
});

for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => server.close(() => process.exit(0)));
}
