// Live updates: the thread's events as SSE read with fetch (EventSource cannot send the API key), reconnecting
// with a backoff.

import { auth, withAuth, renewKey } from './auth.js';
import { ui } from './dom.js';
import { enc } from './format.js';
import { mergePost } from './posts.js';
import { scheduleRender } from './render.js';
import { refreshThreadsSoon } from './sidebar.js';
import { state } from './state.js';
import { fetchThread } from './thread.js';

const STREAM_RETRY_MAX_MS = 15000;

/** The thread's live events: SSE read with fetch, so that it can carry the API key. */
export function openStream() {
  closeStream();
  const threadId = state.threadId;
  if (!threadId) return;
  const gen = state.esGen;
  const stream = new AbortController();
  state.es = stream;
  setConnection(state.esRetry > 0 ? 'reconnecting' : 'connecting');
  readStream(threadId, gen, stream).then((again) => {
    if (gen !== state.esGen) return;
    state.es = null;
    if (again === 'stop') {
      setConnection('idle');
      return;
    }
    setConnection('reconnecting');
    const delay = again === 'now' ? 0 : Math.min(STREAM_RETRY_MAX_MS, 500 * 2 ** state.esRetry);
    if (again !== 'now') state.esRetry++;
    state.esTimer = setTimeout(() => {
      state.esTimer = null;
      if (gen === state.esGen && state.threadId === threadId) openStream();
    }, delay);
  });
}

/** Reads the stream until it ends; says what to do next: 'retry' (after a backoff), 'now' or 'stop'. */
async function readStream(threadId, gen, stream) {
  const usedKey = auth.key;
  let res;
  try {
    res = await fetch('/api/chat/threads/' + enc(threadId) + '/events', {
      headers: withAuth({ Accept: 'text/event-stream' }),
      credentials: 'same-origin',
      cache: 'no-store',
      signal: stream.signal,
    });
  } catch (e) {
    return 'retry';
  }
  if (res.status === 401) {
    return renewKey(usedKey) ? 'now' : 'stop';
  }
  if (!res.ok || !res.body) {
    return 'retry';
  }
  if (gen !== state.esGen) return 'stop';
  state.esRetry = 0;
  setConnection('live');
  // anything that changed while we were not listening arrives with the snapshot
  fetchThread(threadId);
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return 'retry';
      buffer += value.replace(/\r\n?/g, '\n');
      let end;
      while ((end = buffer.indexOf('\n\n')) >= 0) {
        const block = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (gen === state.esGen) streamEvent(block);
      }
    }
  } catch (e) {
    return 'retry';
  }
}

/** One SSE event block: {@code event: post} with the post as JSON data; comments are keepalives. */
function streamEvent(block) {
  let event = 'message';
  const data = [];
  for (const line of block.split('\n')) {
    if (!line || line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') event = value;
    else if (field === 'data') data.push(value);
  }
  if (event !== 'post' || data.length === 0) return;
  let post;
  try {
    post = JSON.parse(data.join('\n'));
  } catch (e) {
    return;
  }
  mergePost(post);
  scheduleRender();
  refreshThreadsSoon();
}

export function closeStream() {
  state.esGen++;
  if (state.esTimer) {
    clearTimeout(state.esTimer);
    state.esTimer = null;
  }
  if (state.es) {
    state.es.abort();
    state.es = null;
  }
}

export function setConnection(kind) {
  ui.connection.dataset.state = kind;
  ui.connection.textContent = {
    idle: '',
    connecting: 'Connecting…',
    live: 'Live',
    reconnecting: 'Reconnecting…',
  }[kind] || '';
}
