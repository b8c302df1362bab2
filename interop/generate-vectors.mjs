#!/usr/bin/env node
// Generates A2A JSON test vectors from the REAL @a2a-js/sdk 1.3.0.
//
//   npm ci && node generate-vectors.mjs
//
// It starts an SDK server (express + jsonRpcHandler + agentCardHandler, legacyCompat on) on 127.0.0.1 with an
// AgentExecutor that publishes a varied set of events, drives it with raw HTTP in A2A 1.0 (`A2A-Version: 1.0`,
// PascalCase methods) and 0.3 (no header, `message/send` …), and records the exact JSON the SDK server writes.
// It also runs the SDK CLIENT (ClientFactory, 1.0 and 0.3 legacyCompat transports) against the server and
// records the request envelopes the server received (express middleware).
//
// Output: ../protocol/src/test/resources/vectors/js-1.0/*.json and …/js-0.3/*.json, each
//   {"source":"js-1.0"|"js-0.3","version":"1.0"|"0.3","type":T,"description":"…","json":<value>}
// Existing *.json files in those two folders are deleted first.
//
// Determinism: crypto.randomUUID is replaced by a counter (valid v4-shaped UUIDs) so server-generated ids are
// stable from run to run; executor timestamps are fixed. Timestamps the SDK itself generates (e.g. on cancel)
// are real clock values.

import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// ---- deterministic ids (must be installed before the SDK generates any) ----
let uuidCounter = 0;
globalThis.crypto.randomUUID = () => {
  uuidCounter += 1;
  return `00000000-0000-4000-8000-${uuidCounter.toString(16).padStart(12, '0')}`;
};

const express = (await import('express')).default;
const { AGENT_CARD_PATH, Role, TaskState } = await import('@a2a-js/sdk');
const { AgentEvent, DefaultRequestHandler, InMemoryTaskStore } = await import('@a2a-js/sdk/server');
const { agentCardHandler, jsonRpcHandler, UserBuilder } = await import('@a2a-js/sdk/server/express');
const { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } =
  await import('@a2a-js/sdk/client');

// The SDK logs every handler error with console.error; the error vectors provoke many on purpose.
if (!process.env.VECTORS_VERBOSE) console.error = () => {};

const HERE = path.dirname(fileURLToPath(import.meta.url));
const OUT_ROOT = path.resolve(HERE, '../protocol/src/test/resources/vectors');
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// ---------------------------------------------------------------------------------------------------------
// Agent executor: behaviour chosen by the first text part `scenario:<name>`
// ---------------------------------------------------------------------------------------------------------

const TS = (n) => `2026-01-15T10:00:${String(n).padStart(2, '0')}.000Z`;

function part(content, extra = {}) {
  return { content, metadata: undefined, filename: '', mediaType: '', ...extra };
}
const text = (value, extra) => part({ $case: 'text', value }, extra);

function agentMsg(id, parts, taskId, contextId, extra = {}) {
  return {
    messageId: id,
    contextId,
    taskId: taskId ?? '',
    role: Role.ROLE_AGENT,
    parts,
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
    ...extra,
  };
}

class VectorExecutor {
  cancelled = new Set();

  cancelTask = async (taskId) => {
    this.cancelled.add(taskId);
  };

  async execute(ctx, bus) {
    const msg = ctx.userMessage;
    const taskId = ctx.taskId;
    const contextId = ctx.contextId;
    const first = msg.parts.find((p) => p.content?.$case === 'text');
    const scenario = first ? first.content.value.replace(/^scenario:/, '') : '';
    const status = (state, n, message) => ({ state, timestamp: TS(n), message });
    const statusUpdate = (state, n, message, metadata) =>
      bus.publish(AgentEvent.statusUpdate({ taskId, contextId, status: status(state, n, message), metadata }));
    const artifactUpdate = (artifact, append, lastChunk, metadata) =>
      bus.publish(AgentEvent.artifactUpdate({ taskId, contextId, artifact, append, lastChunk, metadata }));
    const newTask = (metadata) =>
      bus.publish(AgentEvent.task({
        id: taskId,
        contextId,
        status: status(TaskState.TASK_STATE_SUBMITTED, 0, undefined),
        artifacts: [],
        history: [msg],
        metadata,
      }));

    switch (scenario) {
      case 'message': {
        bus.publish(AgentEvent.message(agentMsg(
          `agent-reply-${msg.messageId}`,
          [
            text('Direct reply without a task.'),
            part({ $case: 'data', value: { answer: 42, units: ['m', 's'] } }, { mediaType: 'application/json' }),
          ],
          undefined,
          contextId,
          { metadata: { replyTo: msg.messageId }, referenceTaskIds: [] }
        )));
        return;
      }
      case 'full': {
        newTask({ origin: 'vector-generator', priority: 2, tags: ['a', 'b'] });
        statusUpdate(TaskState.TASK_STATE_WORKING, 1,
          agentMsg('agent-working-1', [text('Working on it')], taskId, contextId), { step: 1 });
        artifactUpdate({
          artifactId: 'report', name: 'Report', description: 'A report streamed in three chunks',
          parts: [text('Part one. ', { mediaType: 'text/plain' })], metadata: { chunk: 1 }, extensions: [],
        }, false, false, undefined);
        artifactUpdate({
          artifactId: 'report', name: 'Report', description: '',
          parts: [text('Part two. ')], metadata: undefined, extensions: [],
        }, true, false, undefined);
        artifactUpdate({
          artifactId: 'report', name: '', description: '',
          parts: [text('Part three.')], metadata: undefined, extensions: [],
        }, true, true, { final: 'chunk' });
        artifactUpdate({
          artifactId: 'files', name: 'Files', description: 'Inline bytes and a URL',
          parts: [
            part({ $case: 'raw', value: Buffer.from('hello, bytes\n') }, { filename: 'hello.txt', mediaType: 'text/plain' }),
            part({ $case: 'raw', value: Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe]) },
              { filename: 'tiny.png', mediaType: 'image/png', metadata: { width: 1, height: 1 } }),
            part({ $case: 'url', value: 'https://example.com/files/doc.pdf' }, { filename: 'doc.pdf', mediaType: 'application/pdf' }),
          ],
          metadata: undefined, extensions: [],
        }, false, true, undefined);
        artifactUpdate({
          artifactId: 'data', name: 'Data', description: 'Structured data parts',
          parts: [
            part({ $case: 'data', value: { k: 1, nested: { list: [1, 2, 3], flag: true, none: null } } }, { mediaType: 'application/json' }),
            part({ $case: 'data', value: [1, 'two', { three: 3 }] }),
            part({ $case: 'data', value: 'a bare string' }),
            part({ $case: 'data', value: 42.5 }),
            part({ $case: 'data', value: false }),
          ],
          metadata: undefined, extensions: ['https://example.com/ext/data/v1'],
        }, false, true, undefined);
        statusUpdate(TaskState.TASK_STATE_COMPLETED, 2,
          agentMsg('agent-done-1', [text('All done.')], taskId, contextId), undefined);
        return;
      }
      case 'input': {
        if (ctx.task) {
          // follow-up turn on the interrupted task
          bus.publish(AgentEvent.task(ctx.task));
          statusUpdate(TaskState.TASK_STATE_WORKING, 4, undefined, undefined);
          artifactUpdate({
            artifactId: 'answer', name: 'Answer', description: '',
            parts: [text('Thanks, continuing with your answer.')], metadata: undefined, extensions: [],
          }, false, true, undefined);
          statusUpdate(TaskState.TASK_STATE_COMPLETED, 5, undefined, undefined);
          return;
        }
        newTask(undefined);
        statusUpdate(TaskState.TASK_STATE_INPUT_REQUIRED, 3,
          agentMsg('agent-question-1', [text('Which city do you mean?')], taskId, contextId), undefined);
        return;
      }
      case 'fail': {
        newTask(undefined);
        statusUpdate(TaskState.TASK_STATE_WORKING, 1, undefined, undefined);
        statusUpdate(TaskState.TASK_STATE_FAILED, 2,
          agentMsg('agent-failure-1', [text('Upstream service unavailable.')], taskId, contextId),
          { errorCode: 'UPSTREAM_DOWN' });
        return;
      }
      case 'reject': {
        newTask(undefined);
        statusUpdate(TaskState.TASK_STATE_REJECTED, 1,
          agentMsg('agent-reject-1', [text('I will not do that.')], taskId, contextId), undefined);
        return;
      }
      case 'slow': {
        newTask(undefined);
        statusUpdate(TaskState.TASK_STATE_WORKING, 1, undefined, undefined);
        const deadline = Date.now() + 10_000;
        while (Date.now() < deadline && !this.cancelled.has(taskId)) await sleep(20);
        statusUpdate(this.cancelled.has(taskId) ? TaskState.TASK_STATE_CANCELED : TaskState.TASK_STATE_COMPLETED, 9,
          agentMsg(`agent-cancel-${taskId.slice(-4)}`, [text('Canceled on request.')], taskId, contextId), undefined);
        this.cancelled.delete(taskId);
        return;
      }
      default: {
        newTask(undefined);
        artifactUpdate({
          artifactId: 'echo', name: 'echo', description: '',
          parts: msg.parts, metadata: undefined, extensions: [],
        }, false, true, undefined);
        statusUpdate(TaskState.TASK_STATE_COMPLETED, 1, undefined, undefined);
      }
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// Server
// ---------------------------------------------------------------------------------------------------------

const recorded = []; // {path, headers, body} of every JSON-RPC request the server received
const app = express();
const server = http.createServer(app);
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const PORT = server.address().port;
const BASE = `http://127.0.0.1:${PORT}`;
const RPC = `${BASE}/a2a/jsonrpc`;
const CARD_URL = `${BASE}/${AGENT_CARD_PATH}`;

// The card uses fixed example URLs so the card vectors are stable; the server is reached via RPC above.
// The SDK client is given a copy of the card rewritten to the live URL (see sdkClient()).
const PUBLIC_RPC = 'https://agent.example.com/a2a/jsonrpc';
const agentCard = {
  name: 'Vector Agent',
  description: 'The @a2a-js/sdk 1.3.0 agent used to record Switchboard test vectors.',
  supportedInterfaces: [
    { url: PUBLIC_RPC, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '1.0' },
    { url: PUBLIC_RPC, protocolBinding: 'JSONRPC', tenant: '', protocolVersion: '0.3' },
  ],
  provider: { organization: 'Switchboard', url: 'https://example.com' },
  version: '2.1.0',
  documentationUrl: 'https://example.com/docs',
  capabilities: {
    streaming: true,
    pushNotifications: false,
    extensions: [{ uri: 'https://example.com/ext/data/v1', description: 'Data extension', required: false, params: { level: 1 } }],
    extendedAgentCard: false,
  },
  securitySchemes: {
    apiKey: { scheme: { $case: 'apiKeySecurityScheme', value: { description: 'API key', location: 'header', name: 'X-API-Key' } } },
    bearer: { scheme: { $case: 'httpAuthSecurityScheme', value: { description: '', scheme: 'Bearer', bearerFormat: 'JWT' } } },
  },
  securityRequirements: [{ schemes: { apiKey: { list: [] } } }],
  defaultInputModes: ['text/plain', 'application/json'],
  defaultOutputModes: ['text/plain', 'application/json', 'image/png'],
  skills: [
    {
      id: 'report', name: 'Report', description: 'Writes a report', tags: ['report', 'demo'],
      examples: ['write a report'], inputModes: ['text/plain'], outputModes: ['text/plain', 'application/json'],
      securityRequirements: [],
    },
    {
      id: 'echo', name: 'Echo', description: 'Echoes input', tags: ['echo'], examples: [], inputModes: [],
      outputModes: [], securityRequirements: [],
    },
  ],
  signatures: [],
  iconUrl: 'https://example.com/icon.png',
};

const requestHandler = new DefaultRequestHandler(agentCard, new InMemoryTaskStore(), new VectorExecutor());
app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: requestHandler, legacyCompat: { enabled: true } }));
app.use('/a2a/jsonrpc', (req, res, next) => {
  // Record the raw body bytes without consuming the stream the SDK's express.json() reads.
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    const raw = Buffer.concat(chunks).toString('utf8');
    let body;
    try { body = JSON.parse(raw); } catch { body = raw; }
    recorded.push({ headers: { ...req.headers }, body });
  });
  next();
});
app.use('/a2a/jsonrpc', jsonRpcHandler({ requestHandler, userBuilder: UserBuilder.noAuthentication, legacyCompat: { enabled: true } }));

// ---------------------------------------------------------------------------------------------------------
// Raw HTTP driver
// ---------------------------------------------------------------------------------------------------------

let rpcId = 0;
function headersFor(version, extra = {}) {
  const h = { 'Content-Type': 'application/json' };
  if (version === '1.0') h['A2A-Version'] = '1.0';
  return { ...h, ...extra };
}

async function rpc(version, method, params, opts = {}) {
  const id = opts.id !== undefined ? opts.id : ++rpcId;
  const body = opts.rawBody ?? JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
  const res = await fetch(RPC, { method: 'POST', headers: headersFor(version, opts.headers), body });
  const textBody = await res.text();
  let json;
  try { json = JSON.parse(textBody); } catch { throw new Error(`non-JSON response to ${method}: ${res.status} ${textBody}`); }
  return { status: res.status, contentType: res.headers.get('content-type'), json };
}

function parseSse(raw) {
  const events = [];
  for (const block of raw.replace(/\r\n/g, '\n').split('\n\n')) {
    if (!block.trim()) continue;
    let event = 'message';
    const data = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue;
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
    }
    if (data.length) events.push({ event, json: JSON.parse(data.join('\n')) });
  }
  return events;
}

async function rpcStream(version, method, params, opts = {}) {
  const id = ++rpcId;
  const res = await fetch(RPC, {
    method: 'POST',
    headers: headersFor(version, { Accept: 'text/event-stream', ...(opts.headers ?? {}) }),
    body: JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  });
  const raw = await res.text();
  const contentType = res.headers.get('content-type') ?? '';
  if (!contentType.startsWith('text/event-stream')) {
    return { status: res.status, contentType, events: [], json: JSON.parse(raw) };
  }
  return { status: res.status, contentType, events: parseSse(raw) };
}

// Wire-level user messages
function userMessage(version, id, scenario, extra = {}) {
  if (version === '1.0') {
    return { messageId: id, role: 'ROLE_USER', parts: [{ text: `scenario:${scenario}` }], ...extra };
  }
  return { kind: 'message', messageId: id, role: 'user', parts: [{ kind: 'text', text: `scenario:${scenario}` }], ...extra };
}

const M = {
  send: { '1.0': 'SendMessage', '0.3': 'message/send' },
  stream: { '1.0': 'SendStreamingMessage', '0.3': 'message/stream' },
  get: { '1.0': 'GetTask', '0.3': 'tasks/get' },
  cancel: { '1.0': 'CancelTask', '0.3': 'tasks/cancel' },
  resubscribe: { '1.0': 'SubscribeToTask', '0.3': 'tasks/resubscribe' },
  pushSet: { '1.0': 'CreateTaskPushNotificationConfig', '0.3': 'tasks/pushNotificationConfig/set' },
  extCard: { '1.0': 'GetExtendedAgentCard', '0.3': 'agent/getAuthenticatedExtendedCard' },
};

// result → task id in either version
function taskOf(version, result) {
  return version === '1.0' ? result.task : result;
}

// ---------------------------------------------------------------------------------------------------------
// Vector collection
// ---------------------------------------------------------------------------------------------------------

const vectors = { '1.0': new Map(), '0.3': new Map() };
function vec(version, file, type, description, json) {
  if (json === undefined) throw new Error(`vector ${version}/${file}: json is undefined`);
  const m = vectors[version];
  if (m.has(file)) throw new Error(`duplicate vector ${version}/${file}`);
  m.set(file, { source: `js-${version}`, version, type, description, json });
}
function must(cond, what) {
  if (!cond) throw new Error(`unexpected SDK behaviour: ${what}`);
}
function resultOf(r, what) {
  must(r.json && 'result' in r.json, `${what}: expected result, got ${JSON.stringify(r.json)}`);
  return r.json.result;
}
function errorOf(r, what) {
  must(r.json && r.json.error, `${what}: expected error, got ${JSON.stringify(r.json)}`);
  return r.json.error;
}
const httpNote = (r) => `HTTP ${r.status}, Content-Type ${r.contentType}`;

async function serverVectors(v) {
  const isV1 = v === '1.0';
  const V = isV1 ? 'v10' : 'v03';

  // --- card ---
  {
    const res = await fetch(CARD_URL, { headers: isV1 ? { 'A2A-Version': '1.0' } : {} });
    vec(v, isV1 ? 'card-pure-1.0.json' : 'card-hybrid-no-header.json', 'card',
      isV1
        ? 'Agent card served with A2A-Version: 1.0 (pure 1.0 card, supportedInterfaces lists 1.0 and 0.3 JSONRPC).'
        : `Agent card served without A2A-Version (hybrid: 0.3 top-level url/preferredTransport/protocolVersion plus the 1.0 supportedInterfaces). Vary: ${res.headers.get('vary')}`,
      await res.json());
  }

  // --- SendMessage: full scenario, blocking → completed task ---
  {
    const params = {
      message: userMessage(v, `m${V}-full`, 'full', {
        contextId: `ctx-${V}-full`,
        metadata: { clientTrace: 'abc-123' },
      }),
      ...(isV1
        ? { configuration: { acceptedOutputModes: ['text/plain', 'application/json'], historyLength: 10 } }
        : { configuration: { acceptedOutputModes: ['text/plain', 'application/json'], historyLength: 10, blocking: true } }),
      metadata: { requestLevel: true },
    };
    vec(v, 'send-params-full.json', 'sendParams', 'Hand-written SendMessage params accepted by the SDK server (message with contextId and metadata, configuration, request metadata).', params);
    const r = await rpc(v, M.send[v], params, { id: `req-${V}-full` });
    const result = resultOf(r, 'send full');
    vec(v, 'send-result-task-completed.json', 'sendResult',
      'Blocking SendMessage result: completed Task with merged artifacts (3 appended text chunks, raw bytes, url, data parts), history and metadata.',
      result);
    vec(v, 'response-send-task-completed.json', 'response', `Whole JSON-RPC response envelope of a blocking SendMessage (string id). ${httpNote(r)}`, r.json);
    vec(v, 'task-completed-full.json', 'task', 'The completed Task from a blocking SendMessage (same as the sendResult payload).', taskOf(v, result));
    const t = taskOf(v, result);
    vec(v, 'message-history-user.json', 'message', 'User message as stored in task history by the server (contextId/taskId filled in, metadata kept).', t.history[0]);
    must(t.history.length >= 2, 'history has agent status message');
    vec(v, 'message-history-agent-status.json', 'message', 'Agent status message moved into task history by the SDK when the next status arrived.', t.history[1]);

    // GetTask (full history, historyLength=1, historyLength=0)
    const g = await rpc(v, M.get[v], { id: t.id });
    vec(v, 'get-task-result.json', 'task', 'GetTask result (bare Task in both versions) with no historyLength.', resultOf(g, 'get'));
    const g1 = await rpc(v, M.get[v], { id: t.id, historyLength: 1 });
    vec(v, 'get-task-result-history-1.json', 'task', 'GetTask result with historyLength 1.', resultOf(g1, 'get h1'));
    const g0 = await rpc(v, M.get[v], { id: t.id, historyLength: 0 });
    vec(v, 'get-task-result-history-0.json', 'task', 'GetTask result with historyLength 0.', resultOf(g0, 'get h0'));
    vec(v, 'task-query-get-history.json', 'taskQuery', 'GetTask params with historyLength.', { id: t.id, historyLength: 1 });

    // CancelTask on a completed task → not cancelable
    const c = await rpc(v, M.cancel[v], { id: t.id });
    vec(v, 'error-cancel-terminal-task.json', 'error', `CancelTask on a completed task. ${httpNote(c)}`, errorOf(c, 'cancel terminal'));
  }

  // --- Streaming: full scenario ---
  {
    const params = { message: userMessage(v, `m${V}-stream-full`, 'full', { contextId: `ctx-${V}-stream` }) };
    const s = await rpcStream(v, M.stream[v], params);
    must(s.events.length === 8, `full stream has 8 events, got ${s.events.length}`);
    const names = ['task', 'status-working', 'artifact-first-chunk', 'artifact-append', 'artifact-append-last-chunk',
      'artifact-files', 'artifact-data', 'status-completed'];
    const descs = [
      'First stream event: the Task (submitted, history with the user message, task metadata).',
      'Working status update with an agent message and event metadata.',
      'Artifact update: first chunk of artifact "report" (append false, lastChunk false, artifact metadata, text part mediaType).',
      'Artifact update: append chunk (append true, lastChunk false).',
      'Artifact update: final appended chunk (append true, lastChunk true, event metadata).',
      'Artifact update: raw bytes parts (text/plain, image/png with part metadata) and a URL part.',
      'Artifact update: data parts — an object, and non-object values (array, string, number, boolean) plus artifact extensions.',
      'Completed status update with an agent message (0.3: final true).',
    ];
    s.events.forEach((e, i) => {
      must(e.event === 'message', 'no event: field');
      vec(v, `stream-${String(i + 1).padStart(2, '0')}-${names[i]}.json`, 'streamEvent', descs[i], resultOf({ json: e.json }, 'stream'));
    });
    vec(v, 'response-stream-event-envelope.json', 'response', `Whole JSON-RPC envelope of one SSE data: line (echoes the numeric request id). ${httpNote(s)}`, s.events[1].json);
  }

  // --- Direct message reply ---
  {
    const r = await rpc(v, M.send[v], { message: userMessage(v, `m${V}-msg`, 'message', { contextId: `ctx-${V}-msg` }) });
    const result = resultOf(r, 'send message');
    vec(v, 'send-result-message.json', 'sendResult', 'SendMessage answered with a direct Message (no task): text + data part, metadata.', result);
    vec(v, 'message-agent-direct-reply.json', 'message', 'The agent Message of a direct reply.', isV1 ? result.message : result);
    const s = await rpcStream(v, M.stream[v], { message: userMessage(v, `m${V}-msg-stream`, 'message', { contextId: `ctx-${V}-msg` }) });
    must(s.events.length === 1, 'message stream has 1 event');
    vec(v, 'stream-message-only.json', 'streamEvent', 'A message stream: exactly one Message event, then the stream closes.', s.events[0].json.result);
  }

  // --- input-required then follow-up ---
  let inputTaskId;
  {
    const s = await rpcStream(v, M.stream[v], { message: userMessage(v, `m${V}-input`, 'input', { contextId: `ctx-${V}-input` }) });
    must(s.events.length === 2, `input stream has 2 events, got ${s.events.length}`);
    vec(v, 'stream-input-01-task.json', 'streamEvent', 'Input-required stream: first event, the Task.', s.events[0].json.result);
    vec(v, 'stream-input-02-status-input-required.json', 'streamEvent',
      'Input-required status update with the agent question; the SDK closes the stream after it (0.3: final false).', s.events[1].json.result);
    inputTaskId = taskOf(v, s.events[0].json.result).id;
    const followParams = {
      message: userMessage(v, `m${V}-input-answer`, 'input', { taskId: inputTaskId, contextId: `ctx-${V}-input` }),
    };
    followParams.message.parts.push(isV1 ? { text: 'Paris' } : { kind: 'text', text: 'Paris' });
    vec(v, 'send-params-followup-with-task-id.json', 'sendParams', 'Follow-up SendMessage params continuing an input-required task (taskId + contextId).', followParams);
    const r = await rpc(v, M.send[v], followParams);
    vec(v, 'send-result-task-followup-completed.json', 'sendResult', 'Result of the follow-up message: the same task, now completed, history holds both user turns and the question.', resultOf(r, 'followup'));
  }
  {
    const r = await rpc(v, M.send[v], { message: userMessage(v, `m${V}-input-blocking`, 'input') });
    vec(v, 'send-result-task-input-required.json', 'sendResult', 'Blocking SendMessage returning when the task becomes input-required (status message is the question).', resultOf(r, 'input blocking'));
  }

  // --- failed / rejected ---
  {
    const r = await rpc(v, M.send[v], { message: userMessage(v, `m${V}-fail`, 'fail') });
    vec(v, 'send-result-task-failed.json', 'sendResult', 'SendMessage result: failed Task with a status message.', resultOf(r, 'fail'));
    const s = await rpcStream(v, M.stream[v], { message: userMessage(v, `m${V}-fail-stream`, 'fail') });
    must(s.events.length === 3, 'fail stream 3 events');
    vec(v, 'stream-failed-status.json', 'streamEvent', 'Failed status update with status message and event metadata (last event of a stream).', s.events[2].json.result);
    const rj = await rpc(v, M.send[v], { message: userMessage(v, `m${V}-reject`, 'reject') });
    vec(v, 'send-result-task-rejected.json', 'sendResult', 'SendMessage result: rejected Task.', resultOf(rj, 'reject'));
  }

  // --- non-blocking send + cancel ---
  {
    const params = {
      message: userMessage(v, `m${V}-slow`, 'slow', { contextId: `ctx-${V}-slow` }),
      configuration: isV1 ? { returnImmediately: true } : { blocking: false },
    };
    vec(v, isV1 ? 'send-params-return-immediately.json' : 'send-params-non-blocking.json', 'sendParams',
      isV1 ? 'SendMessage params with configuration.returnImmediately true.' : 'message/send params with configuration.blocking false.', params);
    const r = await rpc(v, M.send[v], params);
    const result = resultOf(r, 'slow');
    vec(v, 'send-result-task-non-blocking.json', 'sendResult', 'Non-blocking SendMessage result: the task as soon as it exists (submitted or working).', result);
    const id = taskOf(v, result).id;
    await sleep(100);
    const c = await rpc(v, M.cancel[v], { id, metadata: { reason: 'user request' } });
    vec(v, 'task-query-cancel.json', 'taskQuery', 'CancelTask params with metadata.', { id, metadata: { reason: 'user request' } });
    vec(v, 'cancel-task-result.json', 'task', 'CancelTask result (bare Task) in state canceled.', resultOf(c, 'cancel'));
  }

  // --- ListTasks (1.0 only) ---
  if (isV1) {
    const params = { pageSize: 2, historyLength: 1 };
    const r1 = await rpc(v, 'ListTasks', params);
    const p1 = resultOf(r1, 'list p1');
    vec(v, 'list-tasks-params-page-size.json', 'listTasksParams', 'ListTasks params: pageSize and historyLength.', params);
    vec(v, 'list-tasks-result-page-1.json', 'listTasksResult', 'ListTasks result, first page of 2 with nextPageToken, totalSize, pageSize.', p1);
    must(p1.nextPageToken, 'has next page');
    const params2 = { pageSize: 2, historyLength: 1, pageToken: p1.nextPageToken };
    vec(v, 'list-tasks-params-page-token.json', 'listTasksParams', 'ListTasks params with a pageToken from the previous page.', params2);
    vec(v, 'list-tasks-result-page-2.json', 'listTasksResult', 'ListTasks result, second page.', resultOf(await rpc(v, 'ListTasks', params2), 'list p2'));
    const params3 = { contextId: `ctx-${V}-full`, status: 'TASK_STATE_COMPLETED', includeArtifacts: true, historyLength: 0 };
    vec(v, 'list-tasks-params-filter.json', 'listTasksParams', 'ListTasks params: filter by contextId and status, includeArtifacts, historyLength 0.', params3);
    vec(v, 'list-tasks-result-filtered.json', 'listTasksResult', 'ListTasks result filtered by contextId/status with artifacts and no history; nextPageToken empty on the last page.', resultOf(await rpc(v, 'ListTasks', params3), 'list filter'));
    const params4 = { contextId: 'no-such-context' };
    vec(v, 'list-tasks-result-empty.json', 'listTasksResult', 'ListTasks result with no match.', resultOf(await rpc(v, 'ListTasks', params4), 'list empty'));
  } else {
    const r = await rpc(v, 'tasks/list', {});
    vec(v, 'error-tasks-list-method-not-found.json', 'error', `0.3 tasks/list (no JSON-RPC binding in 0.3). ${httpNote(r)}`, errorOf(r, 'tasks/list'));
  }

  // --- errors ---
  {
    const r = await rpc(v, M.get[v], { id: 'no-such-task' });
    vec(v, 'error-get-task-not-found.json', 'error', `GetTask on an unknown id. ${httpNote(r)}`, errorOf(r, 'not found'));
    vec(v, 'response-error-task-not-found.json', 'response', `Whole error response envelope for GetTask on an unknown id. ${httpNote(r)}`, r.json);
    const rc = await rpc(v, M.cancel[v], { id: 'no-such-task' });
    vec(v, 'error-cancel-task-not-found.json', 'error', `CancelTask on an unknown id. ${httpNote(rc)}`, errorOf(rc, 'cancel not found'));
    const rm = await rpc(v, isV1 ? 'NoSuchMethod' : 'tasks/nosuch', {});
    vec(v, 'error-method-not-found.json', 'error', `Unknown method. ${httpNote(rm)}`, errorOf(rm, 'method not found'));
    const rp = await rpc(v, M.send[v], { notAMessage: true });
    vec(v, 'error-invalid-params-missing-message.json', 'error', `SendMessage without message. ${httpNote(rp)}`, errorOf(rp, 'invalid params'));
    const rparse = await rpc(v, null, undefined, { rawBody: '{"jsonrpc":"2.0","id":1,"method":' });
    vec(v, 'response-parse-error.json', 'response', `Whole response for a body that is not JSON (id null). ${httpNote(rparse)}`, rparse.json);
    const rinv = await rpc(v, null, undefined, { rawBody: JSON.stringify({ id: 7, method: M.get[v], params: { id: 'x' } }) });
    vec(v, 'response-invalid-request-no-jsonrpc.json', 'response', `Whole response for a request without "jsonrpc":"2.0". ${httpNote(rinv)}`, rinv.json);
    const rb = await rpc(v, null, undefined, { rawBody: '[]' });
    vec(v, 'response-batch-rejected.json', 'response', `Whole response for a JSON array body (batches are not supported). ${httpNote(rb)}`, rb.json);
    const rpush = await rpc(v, M.pushSet[v], isV1
      ? { taskId: inputTaskId, id: 'cfg-1', url: 'https://example.com/hook', token: 't' }
      : { taskId: inputTaskId, pushNotificationConfig: { id: 'cfg-1', url: 'https://example.com/hook', token: 't' } });
    vec(v, 'error-push-not-supported.json', 'error', `Push config create when the card says pushNotifications false. ${httpNote(rpush)}`, errorOf(rpush, 'push'));
    const rext = await rpc(v, M.extCard[v], isV1 ? {} : undefined);
    vec(v, 'error-extended-card-not-configured.json', 'error', `Extended card requested when none is configured. ${httpNote(rext)}`, errorOf(rext, 'ext card'));
    const rver = await rpc(v, M.get[v], { id: 'x' }, { headers: { 'A2A-Version': '0.5' } });
    vec(v, 'error-version-not-supported.json', 'error', `Request with A2A-Version: 0.5. ${httpNote(rver)}`, errorOf(rver, 'version'));

    // Subscribe to a terminal task: plain JSON error (1.0) vs SSE event: error (0.3)
    const listed = [...vectors[v].values()].find((x) => x.type === 'task' && x.description.startsWith('The completed Task'));
    const terminalId = listed.json.id;
    const rs = await rpcStream(v, M.resubscribe[v], { id: terminalId });
    if (rs.events.length) {
      must(rs.events[0].event === 'error', 'resubscribe error event');
      vec(v, 'error-subscribe-terminal-task.json', 'error',
        `${M.resubscribe[v]} on a completed task: ${httpNote(rs)} carrying one SSE "event: error" with this error.`, rs.events[0].json.error);
    } else {
      vec(v, 'error-subscribe-terminal-task.json', 'error',
        `${M.resubscribe[v]} on a completed task: answered as plain JSON, not SSE. ${httpNote(rs)}`, rs.json.error);
    }
  }
}

// ---------------------------------------------------------------------------------------------------------
// SDK client captures
// ---------------------------------------------------------------------------------------------------------

async function sdkClient(mode) {
  const legacyCompat = { enabled: true };
  const resolver = new DefaultAgentCardResolver({ legacyCompat });
  const card = await resolver.resolve(CARD_URL, '');
  const isLegacy = (ver) => /^0\./.test(ver);
  const wanted = card.supportedInterfaces
    .filter((i) => (mode === '0.3' ? isLegacy(i.protocolVersion) : !isLegacy(i.protocolVersion)))
    .map((i) => ({ ...i, url: RPC }));
  const factory = new ClientFactory(ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
    cardResolver: resolver,
    transports: [new JsonRpcTransportFactory({ legacyCompat })],
  }));
  return factory.createFromAgentCard({ ...card, supportedInterfaces: wanted });
}

function richUserMessage(id, contextId, taskId) {
  return {
    messageId: id,
    contextId: contextId ?? '',
    taskId: taskId ?? '',
    role: Role.ROLE_USER,
    parts: [
      text('scenario:echo'),
      text('plain text with media type', { mediaType: 'text/plain', metadata: { lang: 'en' } }),
      part({ $case: 'raw', value: Buffer.from('attached bytes') }, { filename: 'note.txt', mediaType: 'text/plain' }),
      part({ $case: 'url', value: 'https://example.com/in/photo.jpg' }, { filename: 'photo.jpg', mediaType: 'image/jpeg' }),
      part({ $case: 'data', value: { query: 'weather', days: 3 } }, { mediaType: 'application/json' }),
      part({ $case: 'data', value: ['not', 'an', 'object'] }),
    ],
    metadata: { from: 'sdk-client' },
    extensions: ['https://example.com/ext/data/v1'],
    referenceTaskIds: [],
  };
}

async function clientVectors(v) {
  const isV1 = v === '1.0';
  const client = await sdkClient(v);
  const mark = () => recorded.length;
  const lastBody = (from, method) => {
    const rec = recorded.slice(from).find((r) => r.body && r.body.method === method);
    must(rec, `client sent ${method}`);
    return rec;
  };
  const hdr = (rec) => `A2A-Version header: ${rec.headers['a2a-version'] ?? '(none)'}; Accept: ${rec.headers.accept ?? '(none)'}`;

  // sendMessage (blocking)
  let m = mark();
  const sendReq = {
    tenant: '',
    message: richUserMessage('client-send-1', `ctx-client-${v}`),
    configuration: {
      acceptedOutputModes: ['text/plain'],
      taskPushNotificationConfig: undefined,
      historyLength: 5,
      returnImmediately: false,
    },
    metadata: { requestMeta: 1 },
  };
  const sent = await client.sendMessage(sendReq);
  let rec = lastBody(m, M.send[v]);
  vec(v, 'client-request-send.json', 'request', `Request envelope the SDK client (${isV1 ? '1.0' : '0.3 legacyCompat'} JSON-RPC transport) sent for sendMessage. ${hdr(rec)}`, rec.body);
  vec(v, 'client-send-params.json', 'sendParams', 'The params the SDK client sent for sendMessage (text, text with mediaType/metadata, raw bytes, url, object data and non-object data parts; configuration; metadata).', rec.body.params);
  vec(v, 'client-message-user.json', 'message', 'The user message as serialised by the SDK client.', rec.body.params.message);
  const taskId = sent.id;

  // sendMessageStream
  m = mark();
  const events = [];
  for await (const e of client.sendMessageStream({ tenant: '', message: richUserMessage('client-stream-1', `ctx-client-${v}`), configuration: undefined, metadata: undefined })) events.push(e);
  must(events.length >= 3, 'client stream events');
  rec = lastBody(m, M.stream[v]);
  vec(v, 'client-request-stream.json', 'request', `Request envelope the SDK client sent for sendMessageStream. ${hdr(rec)}`, rec.body);

  // getTask
  m = mark();
  await client.getTask({ tenant: '', id: taskId, historyLength: 2 });
  rec = lastBody(m, M.get[v]);
  vec(v, 'client-request-get-task.json', 'request', `Request envelope the SDK client sent for getTask (historyLength 2). ${hdr(rec)}`, rec.body);
  vec(v, 'client-task-query-get.json', 'taskQuery', 'GetTask params as sent by the SDK client.', rec.body.params);

  // cancelTask (task started non-blocking over raw HTTP)
  const slow = await rpc(v, M.send[v], {
    message: userMessage(v, `client-${v}-slow`, 'slow'),
    configuration: isV1 ? { returnImmediately: true } : { blocking: false },
  });
  const slowId = taskOf(v, resultOf(slow, 'client slow')).id;
  m = mark();
  await client.cancelTask({ tenant: '', id: slowId, metadata: { why: 'test' } });
  rec = lastBody(m, M.cancel[v]);
  vec(v, 'client-request-cancel-task.json', 'request', `Request envelope the SDK client sent for cancelTask (with metadata). ${hdr(rec)}`, rec.body);
  vec(v, 'client-task-query-cancel.json', 'taskQuery', 'CancelTask params as sent by the SDK client.', rec.body.params);

  // follow-up on an existing task id (client fills taskId/contextId)
  m = mark();
  const inp = await client.sendMessage({ tenant: '', message: { ...richUserMessage('client-input-1'), parts: [text('scenario:input')] }, configuration: undefined, metadata: undefined });
  m = mark();
  await client.sendMessage({ tenant: '', message: { ...richUserMessage('client-input-2', inp.contextId, inp.id), parts: [text('scenario:input'), text('Paris')] }, configuration: undefined, metadata: undefined });
  rec = lastBody(m, M.send[v]);
  vec(v, 'client-request-send-followup.json', 'request', `Request envelope the SDK client sent for a follow-up message on an input-required task (taskId + contextId set). ${hdr(rec)}`, rec.body);

  if (isV1) {
    m = mark();
    await client.listTasks({ tenant: '', contextId: `ctx-client-${v}`, status: TaskState.TASK_STATE_COMPLETED, pageSize: 10, pageToken: '', historyLength: 0, statusTimestampAfter: undefined, includeArtifacts: true });
    rec = lastBody(m, 'ListTasks');
    vec(v, 'client-request-list-tasks.json', 'request', `Request envelope the SDK client sent for listTasks. ${hdr(rec)}`, rec.body);
    vec(v, 'client-list-tasks-params.json', 'listTasksParams', 'ListTasks params as sent by the SDK client (contextId, status, pageSize, historyLength 0, includeArtifacts).', rec.body.params);
  }
}

// ---------------------------------------------------------------------------------------------------------

try {
  for (const v of ['1.0', '0.3']) {
    await serverVectors(v);
    await clientVectors(v);
  }
  for (const v of ['1.0', '0.3']) {
    const dir = path.join(OUT_ROOT, `js-${v}`);
    fs.mkdirSync(dir, { recursive: true });
    for (const f of fs.readdirSync(dir)) if (f.endsWith('.json')) fs.unlinkSync(path.join(dir, f));
    for (const [file, body] of [...vectors[v].entries()].sort(([a], [b]) => a.localeCompare(b))) {
      fs.writeFileSync(path.join(dir, file), JSON.stringify(body, null, 2) + '\n');
    }
    process.stdout.write(`js-${v}: ${vectors[v].size} vectors → ${path.relative(process.cwd(), dir)}\n`);
  }
} finally {
  server.closeAllConnections?.();
  server.close();
}
