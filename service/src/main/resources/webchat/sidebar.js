// The sidebar: who we are, the channels, the threads of the chosen one, and starting a thread.

import { api, postWithRetry, sleep, newMessageId } from './api.js';
import { updateComposer } from './composer.js';
import { ui, autosize } from './dom.js';
import { enc, initials, relativeTime } from './format.js';
import { hashFor, navigate, route } from './routing.js';
import { state } from './state.js';

export async function loadMe() {
  try {
    state.me = await api('GET', '/api/chat/me');
  } catch (e) {
    return;
  }
  if (!state.me) return;
  ui.me.hidden = false;
  ui.meName.textContent = state.me.name || state.me.id || '';
  ui.meEmail.textContent = state.me.email || '';
  ui.meAvatar.textContent = initials(state.me.name || state.me.email || state.me.id);
}

export async function loadChannels() {
  for (let attempt = 0; ; attempt++) {
    try {
      const body = await api('GET', '/api/chat/channels');
      state.channels = (body && body.channels) || [];
      break;
    } catch (e) {
      ui.channelsEmpty.hidden = false;
      if (e.status === 401) {
        ui.channelsEmpty.textContent = 'This chat needs an API key. Reload the page to enter one.';
        return;
      }
      ui.channelsEmpty.textContent = 'Could not load channels (' + e.message + '). Retrying…';
      await sleep(Math.min(10000, 500 * 2 ** attempt));
    }
  }
  ui.channelsEmpty.textContent = 'No web channels are configured.';
  ui.channelsEmpty.hidden = state.channels.length > 0;
  renderChannels();
  route();
}

export function channelInfo(name) {
  return state.channels.find((c) => c.name === name) || null;
}

function renderChannels() {
  ui.channelList.replaceChildren(...state.channels.map((c) => {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = hashFor(c.name, null);
    a.className = 'channel-item';
    a.dataset.testid = 'channel-item';
    a.dataset.channel = c.name;
    if (c.name === state.channel) a.setAttribute('aria-current', 'page');
    const name = document.createElement('span');
    name.className = 'channel-name';
    name.textContent = '# ' + c.name;
    a.append(name);
    if (c.description) {
      const d = document.createElement('span');
      d.className = 'channel-description';
      d.textContent = c.description;
      a.title = c.description;
      a.append(d);
    }
    li.append(a);
    return li;
  }));
}

export function selectChannel(name) {
  state.channel = name;
  state.threads = [];
  renderChannels();
  ui.threadsSection.hidden = false;
  ui.threadsHeading.textContent = 'Threads in #' + name;
  ui.newThreadInput.placeholder = 'Start a new thread in #' + name + '…';
  ui.threadList.replaceChildren();
  ui.threadsEmpty.hidden = true;
  ui.newThreadError.hidden = true;
  loadThreads();
}

export async function loadThreads() {
  const channel = state.channel;
  if (!channel) return;
  const gen = ++state.threadsGen;
  let body;
  try {
    body = await api('GET', '/api/chat/channels/' + enc(channel) + '/threads');
  } catch (e) {
    if (gen !== state.threadsGen) return;
    ui.threadsEmpty.hidden = false;
    ui.threadsEmpty.textContent = e.status === 404 ? 'There is no channel #' + channel + '.'
      : 'Could not load threads (' + e.message + ').';
    return;
  }
  if (gen !== state.threadsGen || channel !== state.channel) return;
  state.threads = (body && body.threads) || [];
  renderThreads();
}

/** Coalesces thread list refreshes caused by a burst of posts. */
export function refreshThreadsSoon() {
  if (state.threadsRefreshTimer) return;
  state.threadsRefreshTimer = setTimeout(() => {
    state.threadsRefreshTimer = null;
    loadThreads();
  }, 1500);
}

export function renderThreads() {
  ui.threadsEmpty.textContent = 'No threads yet. Start one above.';
  ui.threadsEmpty.hidden = state.threads.length > 0;
  ui.threadList.replaceChildren(...state.threads.map((t) => {
    const li = document.createElement('li');
    const a = document.createElement('a');
    a.href = hashFor(t.channel || state.channel, t.threadId);
    a.className = 'thread-item';
    a.dataset.testid = 'thread-item';
    a.dataset.threadId = t.threadId;
    if (t.threadId === state.threadId) a.setAttribute('aria-current', 'page');
    const title = document.createElement('span');
    title.className = 'thread-item-title';
    title.textContent = t.title || 'Untitled thread';
    const when = document.createElement('time');
    when.className = 'thread-item-time';
    const at = t.lastActivity || t.createdAt;
    if (at) {
      when.dateTime = at;
      when.textContent = relativeTime(at);
      when.title = new Date(at).toLocaleString();
    }
    a.append(title, when);
    li.append(a);
    return li;
  }));
}

export async function startThread(text, source) {
  const channel = state.channel;
  if (!channel || state.creatingThread) return;
  const messageId = newMessageId();
  state.creatingThread = true;
  const input = source === 'composer' ? ui.composerInput : ui.newThreadInput;
  const errorEl = source === 'composer' ? ui.composerError : ui.newThreadError;
  const button = source === 'composer' ? ui.composerButton : ui.newThreadButton;
  const label = button.textContent;
  let started = false;
  errorEl.hidden = true;
  input.disabled = true;
  button.disabled = true;
  button.textContent = 'Starting…';
  try {
    const created = await postWithRetry('/api/chat/channels/' + enc(channel) + '/threads',
      { text, messageId }, (attempt) => { button.textContent = 'Retrying (' + attempt + ')…'; });
    input.value = '';
    autosize(input);
    started = true;
    if (state.channel === channel) {
      loadThreads();
      navigate(channel, created.threadId, false);
    }
  } catch (e) {
    errorEl.textContent = 'Could not start the thread: ' + e.message + (e.retryable ? '. Try again.' : '');
    errorEl.hidden = false;
  } finally {
    state.creatingThread = false;
    input.disabled = false;
    button.disabled = false;
    button.textContent = label;
    updateComposer();
    // carry on in the new thread, or fix the text that could not be sent
    (started ? ui.composerInput : input).focus();
  }
}
