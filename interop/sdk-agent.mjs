#!/usr/bin/env node
// A real @a2a-js/sdk 1.3.0 echo agent serving A2A 1.0 and 0.3 (legacyCompat) over JSON-RPC.
//
//   node sdk-agent.mjs [--port 0] [--host 127.0.0.1] [--delay-ms 0] [--versions 1.0,0.3] [--record]
//
// Prints one line {"port":N,"cardUrl":"…","rpcUrl":"…"} on stdout once it listens, then serves until killed.
// Card: GET /.well-known/agent-card.json, and the same card at the JSON-RPC URL + /.well-known/agent-card.json
// (where a caller configured with the endpoint looks for it). With both versions: pure 1.0 with `A2A-Version: 1.0`,
// hybrid 0.3+1.0 without.
// JSON-RPC: POST /a2a/jsonrpc (1.0 PascalCase methods and 0.3 `message/send` style methods).
// --versions 0.3: the card lists only the 0.3 interface and is always the SDK's 0.3 card (whatever A2A-Version asks
//   for); calls in 1.0 are refused by the SDK (version not supported). --versions 1.0: 1.0 only, no legacyCompat.
// --record: keeps every request (method, path, headers, JSON body) and every execution (the message and the task and
//   context the SDK gave it); GET /_received answers {"requests":[…],"executions":[…]}.
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
  const out = { port: 0, host: '127.0.0.1', delayMs: 0, versions: ['1.0', '0.3'], record: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const v = argv[i + 1];
    if (a === '--port') { out.port = Number(v); i++; }
    else if (a === '--host') { out.host = v; i++; }
    else if (a === '--delay-ms') { out.delayMs = Number(v); i++; }
    else if (a === '--versions') {
      out.versions = String(v).split(',').map((x) => x.trim()).filter((x) => x);
      if (out.versions.length === 0 || out.versions.some((x) => x !== '1.0' && x !== '0.3')) {
        process.stderr.write(`--versions: a comma-separated list of 1.0 and 0.3, not ${v}\n`);
        process.exit(2);
      }
      i++;
    }
    else if (a === '--record') { out.record = true; }
    else if (a === '--help' || a === '-h') {
      process.stderr.write('usage: node sdk-agent.mjs [--port 0] [--host 127.0.0.1] [--delay-ms 0] [--versions 1.0,0.3] [--record]\n');
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
const legacy = args.versions.includes('0.3');
/** --record: what was received and what was executed, in arrival order */
const received = { requests: [], executions: [] };

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
    if (args.record) {
      received.executions.push({ messageId: msg.messageId, taskId, contextId, existingTask: Boolean(ctx.task) });
    }
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
    description: args.versions.length === 2
      ? 'An @a2a-js/sdk 1.3.0 echo agent serving A2A 1.0 and 0.3 (legacyCompat) over JSON-RPC.'
      : `An @a2a-js/sdk 1.3.0 echo agent serving A2A ${args.versions[0]} over JSON-RPC.`,
    supportedInterfaces: args.versions.map((protocolVersion) => ({ url: rpcUrl, protocolBinding: 'JSONRPC', tenant: '', protocolVersion })),
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
  const cards = agentCardHandler({ agentCardProvider: requestHandler, legacyCompat: { enabled: legacy } });
  const onlyLegacy = (req, _res, next) => {
    // a 0.3-only agent has one card, the SDK's 0.3 one, whatever version the caller asks for
    if (!args.versions.includes('1.0')) delete req.headers['a2a-version'];
    next();
  };
  if (args.record) {
    app.get('/_received', (_req, res) => res.json(received));
    const record = (req, _res, next) => {
      received.requests.push({ httpMethod: req.method, path: req.originalUrl, headers: { ...req.headers }, body: req.body ?? null });
      next();
    };
    app.get([`/${AGENT_CARD_PATH}`, `/a2a/jsonrpc/${AGENT_CARD_PATH}`], record);
    app.post('/a2a/jsonrpc', express.json({ limit: '10mb' }), record);
  }
  app.use([`/${AGENT_CARD_PATH}`, `/a2a/jsonrpc/${AGENT_CARD_PATH}`], onlyLegacy, cards);
  app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication, legacyCompat: { enabled: legacy } }));
  process.stdout.write(JSON.stringify({ port, cardUrl: `${base}/${AGENT_CARD_PATH}`, rpcUrl }) + '\n');
});

for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => server.close(() => process.exit(0)));
}
