// The thread view: opening a thread, its snapshot, and the header that names it.

import { api } from './api.js';
import { updateComposer } from './composer.js';
import { ui } from './dom.js';
import { enc } from './format.js';
import { mergePost } from './posts.js';
import { scheduleRender } from './render.js';
import { navigate } from './routing.js';
import { channelInfo, renderThreads } from './sidebar.js';
import { state } from './state.js';
import { openStream, closeStream, setConnection } from './stream.js';

export function openThread(threadId) {
  closeStream();
  state.threadId = threadId;
  state.thread = null;
  state.threadMissing = false;
  state.posts.clear();
  state.postEls.clear();
  ui.posts.replaceChildren();
  ui.composerError.hidden = true;
  renderThreads();
  if (threadId) {
    ui.emptyState.hidden = true;
    ui.posts.hidden = false;
    openStream();
    fetchThread(threadId);
  } else {
    ui.posts.hidden = true;
    ui.emptyState.hidden = false;
    setConnection('idle');
  }
  renderHeader();
  updateComposer();
}

export async function fetchThread(threadId) {
  let body;
  try {
    body = await api('GET', '/api/chat/threads/' + enc(threadId));
  } catch (e) {
    if (threadId !== state.threadId) return;
    if (e.status === 404) {
      state.threadMissing = true;
      closeStream();
      setConnection('idle');
      renderHeader();
      updateComposer();
    }
    return;
  }
  if (threadId !== state.threadId || !body) return;
  state.thread = { threadId: body.threadId, channel: body.channel, title: body.title };
  if (body.channel && body.channel !== state.channel) {
    // a link with the wrong channel: show the thread under its own channel
    navigate(body.channel, threadId, true);
  }
  for (const p of body.posts || []) mergePost(p);
  // the snapshot now holds every message this page sent successfully
  for (const [id, p] of state.pending) {
    if (p.threadId === threadId && p.status === 'sent') state.pending.delete(id);
  }
  renderHeader();
  scheduleRender();
}

function renderHeader() {
  const channel = state.channel ? channelInfo(state.channel) : null;
  if (state.threadMissing) {
    ui.title.textContent = 'Thread not found';
    ui.subtitle.textContent = 'It may have been removed, or the link is wrong.';
  } else if (state.threadId) {
    ui.title.textContent = (state.thread && state.thread.title) || 'Thread';
    ui.subtitle.textContent = '#' + state.channel + (channel && channel.agent ? ' · agent ' + channel.agent : '');
  } else if (state.channel) {
    ui.title.textContent = '#' + state.channel;
    ui.subtitle.textContent = channel && channel.description ? channel.description : '';
  } else {
    ui.title.textContent = 'Switchboard chat';
    ui.subtitle.textContent = '';
  }
  if (!state.threadId) {
    const title = ui.emptyState.querySelector('.empty-title');
    const detail = ui.emptyState.querySelector('.muted');
    if (state.channel) {
      title.textContent = 'Start a thread in #' + state.channel;
      detail.textContent = (channel && channel.description ? channel.description + '. ' : '')
        + 'Write below or use “New thread”; pick an earlier thread from the list to continue it.';
    }
  }
  document.title = state.threadId && state.thread && state.thread.title
    ? state.thread.title + ' · #' + state.channel + ' · Switchboard'
    : state.channel ? '#' + state.channel + ' · Switchboard' : 'Switchboard chat';
}
