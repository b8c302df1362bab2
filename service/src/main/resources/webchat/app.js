// Switchboard web chat: plain JS modules against the /api/chat JSON API, no build step, no dependencies.
// This one wires the page's forms and the browser's events to the modules, then loads who we are and the channels.

import { sendMessage } from './composer.js';
import { ui, autosize, submitOnEnter } from './dom.js';
import { route } from './routing.js';
import { loadMe, loadChannels, loadThreads, startThread } from './sidebar.js';
import { state } from './state.js';
import { openStream } from './stream.js';

const THREADS_POLL_MS = 30000;

ui.composer.addEventListener('submit', (e) => {
  e.preventDefault();
  const text = ui.composerInput.value.trim();
  if (!text || ui.composerInput.disabled) return;
  ui.composerError.hidden = true;
  if (state.threadId) {
    ui.composerInput.value = '';
    autosize(ui.composerInput);
  }
  sendMessage(text);
});

ui.newThreadForm.addEventListener('submit', (e) => {
  e.preventDefault();
  const text = ui.newThreadInput.value.trim();
  if (text) startThread(text, 'sidebar');
});

submitOnEnter(ui.composerInput, ui.composer);
submitOnEnter(ui.newThreadInput, ui.newThreadForm);

window.addEventListener('hashchange', route);
window.addEventListener('popstate', route);

document.addEventListener('visibilitychange', () => {
  if (document.visibilityState !== 'visible') return;
  if (state.threadId && !state.es && !state.threadMissing) {
    state.esRetry = 0;
    openStream();
  }
  loadThreads();
});

setInterval(() => {
  if (document.visibilityState === 'visible') loadThreads();
}, THREADS_POLL_MS);

// who we are first: it is where the page learns whether it needs an API key
// the first call may ask for an API key with a modal prompt: only once the page has loaded, which a prompt
// opened earlier would hold up (and with it anything waiting for the page, a browser test's navigation included)
const loaded = document.readyState === 'complete' ? Promise.resolve()
  : new Promise((resolve) => window.addEventListener('load', () => setTimeout(resolve, 0), { once: true }));
loaded.then(loadMe).finally(loadChannels);
