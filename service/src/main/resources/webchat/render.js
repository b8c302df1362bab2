// The open thread's posts on the page: updated in place, so streamed text neither re-creates a post nor
// re-announces it.

import { sendMessage, deliver, updateComposer } from './composer.js';
import { ui, announce, labelledInput, textNode, timeEl, tag, isNearBottom, scrollToBottom } from './dom.js';
import { initials, safeClass } from './format.js';
import { orderedPosts, turnStates, openQuestion, hitlType } from './posts.js';
import { updateHitl } from './questions.js';
import { channelInfo } from './sidebar.js';
import { state } from './state.js';
import { createStepPost, updateStepPost } from './steps.js';

const STATE_LABELS = {
  queued: 'Queued',
  sending: 'Sending',
  running: 'Running',
  waiting_for_answer: 'Waiting for your answer',
  paused: 'Paused',
  retrying: 'Retrying',
  cancelling: 'Cancelling',
  completed: 'Completed',
  failed: 'Failed',
  rejected: 'Rejected',
  canceled: 'Canceled',
  not_delivered: 'Not delivered',
};

const ACTIVE_STATES = new Set(['queued', 'sending', 'running', 'retrying', 'cancelling']);

const WAITING_STATES = new Set(['waiting_for_answer', 'paused']);

const BAD_STATES = new Set(['failed', 'rejected', 'canceled', 'not_delivered']);

export function scheduleRender() {
  if (state.renderQueued) return;
  state.renderQueued = true;
  requestAnimationFrame(() => {
    state.renderQueued = false;
    renderPosts();
  });
}

function renderPosts() {
  if (!state.threadId) return;
  const stick = isNearBottom();
  const posts = orderedPosts();
  const states = turnStates(posts);
  const question = openQuestion(posts, states);
  const wanted = [];
  for (const p of posts) {
    wanted.push(renderServerPost(p, states, question));
  }
  for (const p of state.pending.values()) {
    if (p.threadId === state.threadId) wanted.push(renderPendingPost(p));
  }
  // keep existing nodes (and their focus/selection) and only move what is out of place
  const keep = new Set(wanted);
  for (const el of Array.from(ui.posts.children)) {
    if (!keep.has(el)) el.remove();
  }
  wanted.forEach((el, i) => {
    if (ui.posts.children[i] !== el) ui.posts.insertBefore(el, ui.posts.children[i] || null);
  });
  for (const [id, el] of state.postEls) {
    if (!keep.has(el)) state.postEls.delete(id);
  }
  updateComposer(question);
  if (stick) scrollToBottom();
}

function renderServerPost(p, states, question) {
  const key = 'post:' + p.id;
  let el = state.postEls.get(key);
  if (el && el.dataset.kind !== (p.kind || '')) {
    el.remove();
    el = null;
  }
  if (!el) {
    el = createServerPost(p);
    state.postEls.set(key, el);
  }
  updateServerPost(el, p, states, question === p);
  return el;
}

function createServerPost(p) {
  const el = document.createElement('li');
  el.className = 'post post-' + safeClass(p.kind);
  el.dataset.testid = 'post';
  el.dataset.kind = p.kind || '';
  el.dataset.postId = p.id;
  if (p.kind === 'step') {
    return createStepPost(el);
  }
  if (p.kind === 'notice') {
    el.setAttribute('aria-label', 'Notice from Switchboard');
    const icon = document.createElement('span');
    icon.className = 'notice-icon';
    icon.setAttribute('aria-hidden', 'true');
    icon.textContent = 'i';
    const body = document.createElement('div');
    body.className = 'notice-body';
    body.append(textNode(''), timeEl(p.createdAt));
    el.append(icon, body);
    return el;
  }
  const agentName = (channelInfo(state.channel) || {}).agent || state.channel || 'agent';
  const author = p.kind === 'user'
    ? (p.author && (p.author.name || p.author.email || p.author.id)) || 'Someone'
    : agentName;
  const avatar = document.createElement('span');
  avatar.className = 'avatar';
  avatar.setAttribute('aria-hidden', 'true');
  avatar.textContent = p.kind === 'user' ? initials(author) : '✦';
  const body = document.createElement('div');
  body.className = 'post-body';
  const meta = document.createElement('div');
  meta.className = 'post-meta';
  const who = document.createElement('span');
  who.className = 'post-author';
  who.textContent = author;
  if (p.kind === 'user' && p.author && p.author.email) who.title = p.author.email;
  meta.append(who);
  if (p.kind === 'question') meta.append(tag('Question', 'question-tag'));
  meta.append(timeEl(p.createdAt));
  body.append(meta, textNode(''));
  el.append(avatar, body);
  return el;
}

/** Updates a post in place, so streamed text does not re-announce or re-create the whole post. */
function updateServerPost(el, p, states, isOpenQuestion) {
  if (p.kind === 'step') {
    updateStepPost(el, p);
    return;
  }
  const turnState = p.kind === 'user' ? p.state : states.get(p.turnMessageId);
  // agent answers and questions carry their turn's state; notices only their own, if any
  const shownState = p.kind === 'agent' || p.kind === 'question' ? p.state || turnState : p.state;
  if (shownState) el.dataset.state = shownState; else delete el.dataset.state;
  if (p.turnMessageId) el.dataset.turnMessageId = p.turnMessageId;
  const text = el.querySelector('.post-text');
  if (text.textContent !== (p.text || '')) text.textContent = p.text || '';
  if (p.kind === 'user') {
    const meta = el.querySelector('.post-meta');
    const old = meta.querySelector('.badge');
    if (!old || old.dataset.state !== p.state) {
      if (old) old.remove();
      if (p.state) meta.append(badge(p.state));
    }
  }
  if (p.kind === 'agent') {
    const streaming = !!turnState && ACTIVE_STATES.has(turnState);
    text.classList.toggle('streaming', streaming);
    el.setAttribute('aria-busy', String(streaming));
    if (streaming) el.dataset.seenStreaming = 'true';
    // announce answers that finished while the page watched, not the history of the thread
    if (!streaming && turnState && el.dataset.seenStreaming === 'true' && el.dataset.announced !== 'true') {
      el.dataset.announced = 'true';
      announce(((channelInfo(state.channel) || {}).agent || 'The agent') + ' answered: ' + p.text.slice(0, 400));
    }
  }
  if (p.kind === 'question' && hitlType(p)) {
    updateHitl(el, p, isOpenQuestion);
    el.classList.toggle('question-open', isOpenQuestion);
  } else if (p.kind === 'question') {
    const body = el.querySelector('.post-body');
    const footer = body.querySelector('.question-footer');
    const open = String(isOpenQuestion);
    if (!footer || footer.dataset.open !== open) {
      if (footer) footer.remove();
      body.append(questionFooter(isOpenQuestion, ''));
    }
    el.classList.toggle('question-open', isOpenQuestion);
  }
}

function questionFooter(open, draft) {
  const footer = document.createElement('div');
  footer.className = 'question-footer';
  footer.dataset.open = String(open);
  if (!open) {
    footer.append(tag('Answered or closed', 'muted small'));
    return footer;
  }
  const hint = document.createElement('p');
  hint.className = 'question-hint small';
  hint.textContent = 'The agent is waiting for your answer. Answer here or in the message box below: '
    + 'your next message in this thread is the answer.';
  const form = document.createElement('form');
  form.className = 'question-answer';
  form.autocomplete = 'off';
  const { label, input } = labelledInput('answer', 'Your answer', 'question-answer-input', 'question-answer-input',
    'Your answer…');
  input.value = draft;
  const button = document.createElement('button');
  button.type = 'submit';
  button.className = 'button primary small-button';
  button.dataset.testid = 'question-answer-button';
  button.textContent = 'Answer';
  form.append(label, input, button);
  form.addEventListener('submit', (e) => {
    e.preventDefault();
    const text = input.value.trim();
    if (!text) return;
    input.value = '';
    sendMessage(text);
  });
  footer.append(hint, form);
  return footer;
}

function renderPendingPost(p) {
  const key = 'pending:' + p.messageId;
  let el = state.postEls.get(key);
  const version = [p.status, p.error].join('\u0000');
  if (el && el.dataset.version === version) return el;
  const fresh = document.createElement('li');
  fresh.className = 'post post-user post-pending';
  fresh.dataset.testid = 'post';
  fresh.dataset.kind = 'user';
  fresh.dataset.pending = 'true';
  fresh.dataset.state = p.status;
  fresh.dataset.postId = p.messageId;
  fresh.dataset.version = version;
  const name = state.me ? state.me.name || state.me.email || state.me.id : 'You';
  const avatar = document.createElement('span');
  avatar.className = 'avatar';
  avatar.setAttribute('aria-hidden', 'true');
  avatar.textContent = initials(name);
  const body = document.createElement('div');
  body.className = 'post-body';
  const meta = document.createElement('div');
  meta.className = 'post-meta';
  const who = document.createElement('span');
  who.className = 'post-author';
  who.textContent = name;
  const label = { posting: 'Posting…', retrying: 'Retrying…', sent: 'Sent', unsent: 'Not sent' }[p.status] || p.status;
  meta.append(who, timeEl(p.createdAt), tag(label, 'badge ' + (p.status === 'unsent' ? 'badge-bad' : 'badge-active')));
  body.append(meta, textNode(p.text));
  if (p.status === 'unsent') {
    const row = document.createElement('div');
    row.className = 'pending-actions';
    const why = document.createElement('span');
    why.className = 'error small';
    why.textContent = p.error ? 'Could not send: ' + p.error + '.' : 'Could not send.';
    const retry = document.createElement('button');
    retry.type = 'button';
    retry.className = 'button small-button';
    retry.dataset.testid = 'pending-retry';
    retry.textContent = 'Retry';
    retry.addEventListener('click', () => deliver(p));
    const discard = document.createElement('button');
    discard.type = 'button';
    discard.className = 'button small-button ghost';
    discard.textContent = 'Discard';
    discard.addEventListener('click', () => {
      state.pending.delete(p.messageId);
      scheduleRender();
    });
    row.append(why, retry, discard);
    body.append(row);
  }
  fresh.append(avatar, body);
  if (el && el.parentNode) el.replaceWith(fresh);
  state.postEls.set(key, fresh);
  return fresh;
}

function badge(s) {
  const kind = ACTIVE_STATES.has(s) ? 'badge-active' : WAITING_STATES.has(s) ? 'badge-waiting'
    : BAD_STATES.has(s) ? 'badge-bad' : s === 'completed' ? 'badge-good' : '';
  const b = tag(STATE_LABELS[s] || s.replace(/_/g, ' '), 'badge ' + kind);
  b.dataset.testid = 'post-state';
  b.dataset.state = s;
  b.setAttribute('aria-label', 'State: ' + (STATE_LABELS[s] || s));
  return b;
}
