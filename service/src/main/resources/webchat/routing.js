// Routing: #/channel/{c}/thread/{t}.

import { enc } from './format.js';
import { selectChannel } from './sidebar.js';
import { state } from './state.js';
import { openThread } from './thread.js';

function parseHash() {
  const m = location.hash.match(/^#\/channel\/([^/]+)(?:\/thread\/([^/]+))?\/?$/);
  if (!m) return { channel: null, threadId: null };
  try {
    return { channel: decodeURIComponent(m[1]), threadId: m[2] ? decodeURIComponent(m[2]) : null };
  } catch (e) {
    return { channel: null, threadId: null };
  }
}

export function hashFor(channel, threadId) {
  return '#/channel/' + enc(channel) + (threadId ? '/thread/' + enc(threadId) : '');
}

export function navigate(channel, threadId, replace) {
  const target = hashFor(channel, threadId);
  if (location.hash !== target) {
    if (replace) {
      history.replaceState(null, '', target);
    } else {
      history.pushState(null, '', target);
    }
  }
  route();
}

export function route() {
  const wanted = parseHash();
  if (!wanted.channel) {
    if (state.channels.length > 0) {
      navigate(state.channels[0].name, null, true);
    }
    return;
  }
  if (wanted.channel !== state.channel) {
    selectChannel(wanted.channel);
  }
  if (wanted.threadId !== state.threadId) {
    openThread(wanted.threadId);
  }
}
