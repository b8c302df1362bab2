#!/usr/bin/env node
// Interop CLI built on the stock @a2a-js/sdk 1.3.0 client (ClientFactory + DefaultAgentCardResolver).
// It is configured ONLY with an agent card URL; the SDK picks the endpoint from the card.
//
//   node client.mjs --card <cardUrl> --mode 1.0|0.3 --op send|stream|get|cancel|resubscribe --text <text>
//                   [--task-id ID] [--context-id ID] [--message-id ID] [--history-length N] [--last-event-id ID]
//
// stdout: one JSON object per line, each in the 1.0 ProtoJSON StreamResponse shape produced by the SDK's
// own serializer (`StreamResponse.toJSON`), whatever the wire version was (the 0.3 transport translates
// to the SDK's 1.0 model):
//   send   → one line: {"task":{…}} or {"message":{…}}
//   stream → one line per event: {"task"|"message"|"statusUpdate"|"artifactUpdate":{…}}
//   get    → one line: {"task":{…}}
//   cancel → one line: {"task":{…}}
//   push-set|push-get|push-list|push-delete → one line: the SDK's answer as JSON (push-set takes --task-id,
//            --config-id, --push-url, --push-token, --push-credentials; get/delete --task-id and --config-id)
//   resubscribe → one line per event, as stream (SubscribeToTask / tasks/resubscribe of --task-id; with
//            --last-event-id, sent as the Last-Event-ID header through the SDK's service parameters)
// Exit 0 on success. On error one line {"error":{"code":<number|null>,"message":"…"}} and exit 1
// (code is the JSON-RPC error code the SDK reports, null for non-JSON-RPC failures such as network errors).
// Usage errors exit 2.

import { Role, StreamResponse } from '@a2a-js/sdk';
import {
  ClientFactory,
  ClientFactoryOptions,
  DefaultAgentCardResolver,
  JsonRpcTransportFactory,
} from '@a2a-js/sdk/client';

const USAGE =
  'usage: node client.mjs --card <cardUrl> --mode 1.0|0.3 --op send|stream|get|cancel|resubscribe --text <text> ' +
  '[--task-id ID] [--context-id ID] [--message-id ID] [--history-length N] [--last-event-id ID]\n';

function usage(msg) {
  if (msg) process.stderr.write(`client.mjs: ${msg}\n`);
  process.stderr.write(USAGE);
  process.exit(2);
}

function parseArgs(argv) {
  const names = {
    '--card': 'card', '--mode': 'mode', '--op': 'op', '--text': 'text', '--task-id': 'taskId',
    '--context-id': 'contextId', '--message-id': 'messageId', '--history-length': 'historyLength',
    '--last-event-id': 'lastEventId', '--config-id': 'configId', '--push-url': 'pushUrl',
    '--push-token': 'pushToken', '--push-credentials': 'pushCredentials',
  };
  const out = {};
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--help' || argv[i] === '-h') usage();
    const key = names[argv[i]];
    if (!key) usage(`unknown argument ${argv[i]}`);
    if (i + 1 >= argv.length) usage(`missing value for ${argv[i]}`);
    out[key] = argv[++i];
  }
  if (!out.card) usage('--card is required');
  if (out.mode !== '1.0' && out.mode !== '0.3') usage('--mode must be 1.0 or 0.3');
  const ops = ['send', 'stream', 'get', 'cancel', 'resubscribe', 'push-set', 'push-get', 'push-list', 'push-delete'];
  if (!ops.includes(out.op)) usage(`--op must be one of ${ops.join(', ')}`);
  if (out.op.startsWith('push-') && !out.taskId) usage('--task-id is required for push-*');
  if ((out.op === 'send' || out.op === 'stream') && out.text === undefined) usage('--text is required for send/stream');
  if (['get', 'cancel', 'resubscribe'].includes(out.op) && !out.taskId) {
    usage('--task-id is required for get/cancel/resubscribe');
  }
  return out;
}

function print(payload) {
  process.stdout.write(JSON.stringify(StreamResponse.toJSON({ payload })) + '\n');
}

function isLegacy(version) {
  return typeof version === 'string' && /^0\./.test(version.trim());
}

async function makeClient(cardUrl, mode) {
  const legacyCompat = { enabled: true };
  const resolver = new DefaultAgentCardResolver({ legacyCompat });
  // Full card URL, empty path: the resolver fetches exactly this URL (it sends `A2A-Version: 1.0`
  // and, with legacyCompat, translates a 0.3-shaped card, stamping its interfaces protocolVersion 0.3).
  const card = await resolver.resolve(cardUrl, '');
  // The SDK's ClientFactory always prefers a 1.0 interface when a card lists both versions for one
  // binding. To make it speak the requested version we keep only the card's interfaces of that
  // version; the transport factory (legacyCompat) then instantiates the v0.3 transport for 0.3 ones.
  const wanted = (card.supportedInterfaces ?? []).filter((i) =>
    mode === '0.3' ? isLegacy(i.protocolVersion) : !isLegacy(i.protocolVersion)
  );
  if (wanted.length === 0) {
    throw Object.assign(new Error(`agent card at ${cardUrl} lists no A2A ${mode} interface`), { envelopeCode: null });
  }
  const factory = new ClientFactory(
    ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
      cardResolver: resolver,
      transports: [new JsonRpcTransportFactory({ legacyCompat })],
      preferredTransports: ['JSONRPC'],
    })
  );
  return factory.createFromAgentCard({ ...card, supportedInterfaces: wanted });
}

function userMessage(args) {
  return {
    messageId: args.messageId ?? crypto.randomUUID(),
    contextId: args.contextId ?? '',
    taskId: args.taskId ?? '',
    role: Role.ROLE_USER,
    parts: [{ content: { $case: 'text', value: args.text }, metadata: undefined, filename: '', mediaType: '' }],
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
}

function sendRequest(args) {
  return { tenant: '', message: userMessage(args), configuration: undefined, metadata: undefined };
}

async function main() {
  const args = parseArgs(process.argv.slice(2));
  const client = await makeClient(args.card, args.mode);
  const historyLength = args.historyLength !== undefined ? Number(args.historyLength) : undefined;
  switch (args.op) {
    case 'send': {
      const result = await client.sendMessage(sendRequest(args));
      print('messageId' in result && 'role' in result
        ? { $case: 'message', value: result }
        : { $case: 'task', value: result });
      break;
    }
    case 'stream': {
      for await (const event of client.sendMessageStream(sendRequest(args))) {
        process.stdout.write(JSON.stringify(StreamResponse.toJSON(event)) + '\n');
      }
      break;
    }
    case 'get': {
      const task = await client.getTask({ tenant: '', id: args.taskId, historyLength });
      print({ $case: 'task', value: task });
      break;
    }
    case 'cancel': {
      const task = await client.cancelTask({ tenant: '', id: args.taskId, metadata: undefined });
      print({ $case: 'task', value: task });
      break;
    }
    case 'push-set': {
      const authentication = args.pushCredentials ? { scheme: 'Bearer', credentials: args.pushCredentials } : undefined;
      const config = await client.createTaskPushNotificationConfig({
        tenant: '', id: args.configId ?? '', taskId: args.taskId, url: args.pushUrl, token: args.pushToken ?? '',
        authentication,
      });
      process.stdout.write(JSON.stringify(config) + '\n');
      break;
    }
    case 'push-get': {
      const config = await client.getTaskPushNotificationConfig({ tenant: '', taskId: args.taskId, id: args.configId });
      process.stdout.write(JSON.stringify(config) + '\n');
      break;
    }
    case 'push-list': {
      const list = await client.listTaskPushNotificationConfig({ tenant: '', taskId: args.taskId, pageSize: 0, pageToken: '' });
      process.stdout.write(JSON.stringify(list) + '\n');
      break;
    }
    case 'push-delete': {
      await client.deleteTaskPushNotificationConfig({ tenant: '', taskId: args.taskId, id: args.configId });
      process.stdout.write(JSON.stringify({ deleted: true }) + '\n');
      break;
    }
    case 'resubscribe': {
      const options = args.lastEventId ? { serviceParameters: { 'Last-Event-ID': args.lastEventId } } : undefined;
      for await (const event of client.resubscribeTask({ tenant: '', id: args.taskId }, options)) {
        process.stdout.write(JSON.stringify(StreamResponse.toJSON(event)) + '\n');
      }
      break;
    }
  }
}

main().then(
  () => process.exit(0),
  (err) => {
    let code = null;
    if (err && typeof err.envelopeCode === 'number') code = err.envelopeCode;
    else if (err && typeof err.code === 'number') code = err.code;
    const message = (err && err.message) || String(err);
    process.stdout.write(JSON.stringify({ error: { code, message } }) + '\n');
    if (process.env.A2A_CLIENT_DEBUG) process.stderr.write(`${err && err.stack}\n`);
    process.exit(1);
  }
);
