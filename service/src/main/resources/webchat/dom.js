// The page's elements, and small builders of the ones the views add. Everything shown is set with textContent.

const $ = (id) => document.getElementById(id);

export const ui = {
  channelList: $('channel-list'),
  channelsEmpty: $('channels-empty'),
  threadsSection: $('threads-section'),
  threadsHeading: $('threads-heading'),
  threadList: $('thread-list'),
  threadsEmpty: $('threads-empty'),
  newThreadForm: $('new-thread-form'),
  newThreadInput: $('new-thread-input'),
  newThreadButton: $('new-thread-button'),
  newThreadError: $('new-thread-error'),
  me: $('me'),
  meAvatar: $('me-avatar'),
  meName: $('me-name'),
  meEmail: $('me-email'),
  title: $('thread-title'),
  subtitle: $('thread-subtitle'),
  connection: $('connection'),
  scroller: $('posts-scroller'),
  emptyState: $('empty-state'),
  posts: $('posts'),
  composer: $('composer'),
  composerInput: $('composer-input'),
  composerButton: $('composer-button'),
  composerLabel: $('composer-label'),
  composerHint: $('composer-hint'),
  composerError: $('composer-error'),
};

export function announce(message) {
  const region = $('announcer');
  if (!region) return;
  region.textContent = '';
  // a fresh text node after a tick makes screen readers read it even if it repeats
  setTimeout(() => { region.textContent = message; }, 50);
}

/** A text input with a label only screen readers show (the placeholder says the same to everyone else). */
export function labelledInput(idPrefix, labelText, className, testid, placeholder) {
  const id = idPrefix + '-' + Math.random().toString(36).slice(2);
  const label = document.createElement('label');
  label.className = 'visually-hidden';
  label.htmlFor = id;
  label.textContent = labelText;
  const input = document.createElement('input');
  input.type = 'text';
  input.id = id;
  input.className = className;
  input.dataset.testid = testid;
  input.placeholder = placeholder;
  return { label, input };
}

export function textNode(text) {
  const div = document.createElement('div');
  div.className = 'post-text';
  div.dataset.testid = 'post-text';
  div.textContent = text || '';
  return div;
}

export function timeEl(iso) {
  const t = document.createElement('time');
  t.className = 'post-time';
  if (iso) {
    const d = new Date(iso);
    if (!Number.isNaN(d.getTime())) {
      t.dateTime = iso;
      t.textContent = d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
      t.title = d.toLocaleString();
    }
  }
  return t;
}

export function tag(text, className) {
  const s = document.createElement('span');
  s.className = className;
  s.textContent = text;
  return s;
}

export function isNearBottom() {
  const s = ui.scroller;
  return s.scrollHeight - s.scrollTop - s.clientHeight < 120;
}

export function scrollToBottom() {
  ui.scroller.scrollTop = ui.scroller.scrollHeight;
}

export function autosize(textarea) {
  const max = parseFloat(getComputedStyle(textarea).maxHeight) || 220;
  textarea.style.height = 'auto';
  textarea.style.height = Math.min(textarea.scrollHeight, max) + 'px';
  textarea.style.overflowY = textarea.scrollHeight > max ? 'auto' : 'hidden';
}

/** Enter submits, Shift+Enter (or Enter while composing with an input method) inserts a newline. */
export function submitOnEnter(textarea, form) {
  textarea.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.shiftKey && !e.altKey && !e.ctrlKey && !e.metaKey && !e.isComposing && e.keyCode !== 229) {
      e.preventDefault();
      form.requestSubmit ? form.requestSubmit() : form.dispatchEvent(new Event('submit', { cancelable: true }));
    }
  });
  textarea.addEventListener('input', () => autosize(textarea));
}
