// kagent: approvals and ask-user questions that want a structured answer.

import { postWithRetry } from './api.js';
import { announce, labelledInput, tag } from './dom.js';
import { enc, prettyJson } from './format.js';
import { answerTo, hitlType } from './posts.js';
import { scheduleRender } from './render.js';
import { refreshThreadsSoon } from './sidebar.js';
import { state } from './state.js';
import { clippedPre } from './steps.js';
import { fetchThread } from './thread.js';

// What the agent sends is untrusted: tool names, arguments, results, questions and choices all go into the page
// with textContent (or as form values), never as HTML.

const ARGS_LIMIT = 1500;

/** the card of each structured question -> the function that brings it up to date */
const hitlUpdaters = new WeakMap();

export function composerHintFor(question) {
  const type = hitlType(question);
  if (type === 'tool_approval') {
    return 'The agent is waiting for your approval above. You can also type “yes” to approve; '
      + 'anything else rejects it, with your words as the reason.';
  }
  if (type === 'ask_user') {
    const qs = Array.isArray(question.data.questions) ? question.data.questions : [];
    return 'The agent is waiting for your choices above.' + (qs.length === 1 ? ' You can also type your answer.' : '');
  }
  return 'The agent asked a question. Your next message answers it.';
}

// questions that want a structured answer

export function updateHitl(el, p, open) {
  const body = el.querySelector('.post-body');
  const footer = body.querySelector('.question-footer');
  if (footer) footer.remove();
  let card = body.querySelector('.hitl');
  const version = JSON.stringify(p.data);
  if (!card || card.dataset.version !== version) {
    const fresh = hitlType(p) === 'tool_approval' ? approvalCard(p) : askUserCard(p);
    fresh.dataset.version = version;
    if (card) card.replaceWith(fresh); else body.append(fresh);
    card = fresh;
  }
  // kagent's display text of an ask-user request is its questions, which the card shows with their choices
  const text = el.querySelector('.post-text');
  const questions = hitlType(p) === 'ask_user' && Array.isArray(p.data.questions) ? p.data.questions : null;
  text.hidden = !!questions && questions.length > 0
    && (p.text || '').trim() === questions.map((q) => String((q && q.question) || '')).join('\n').trim();
  hitlUpdaters.get(card)(open);
}

/** What the card says about its answer, and whether it still takes one. */
function hitlAnswerState(q, open) {
  const local = state.answers.get(q.id);
  const answered = answerTo(q);
  const busy = !!local && (local.status === 'sending' || local.status === 'sent');
  let status = '';
  let decision = local ? local.decision || '' : '';
  if (answered) {
    const who = answered.author && (answered.author.name || answered.author.email || answered.author.id);
    status = 'Answered: ' + (answered.text || '') + (who ? ' (' + who + ')' : '');
    if (!decision) decision = /^Approved\b/.test(answered.text || '') ? 'approve' : /^Rejected\b/.test(answered.text || '') ? 'reject' : '';
  } else if (local && local.status === 'sending') {
    status = 'Sending: ' + local.label + '…';
  } else if (local && local.status === 'sent') {
    status = 'Answered: ' + local.label;
  } else if (!open) {
    status = 'Not waiting for an answer.';
  }
  return {
    enabled: open && !busy && !answered,
    status,
    decision,
    error: local && local.status === 'failed' ? 'Not sent: ' + local.error : '',
  };
}

function hitlFooter(card) {
  const status = document.createElement('p');
  status.className = 'hitl-status small';
  status.dataset.testid = 'hitl-status';
  status.setAttribute('role', 'status');
  const error = document.createElement('p');
  error.className = 'error small';
  error.dataset.testid = 'hitl-error';
  error.setAttribute('role', 'alert');
  error.hidden = true;
  card.append(status, error);
  return (s) => {
    if (status.textContent !== s.status) status.textContent = s.status;
    status.hidden = !s.status;
    if (error.textContent !== s.error) error.textContent = s.error;
    error.hidden = !s.error;
    card.dataset.decision = s.decision;
    card.dataset.answerable = String(s.enabled);
  };
}

async function sendAnswer(q, body, label, decision) {
  const threadId = state.threadId;
  if (!threadId) return;
  state.answers.set(q.id, { status: 'sending', label, decision, error: null });
  scheduleRender();
  try {
    await postWithRetry('/api/chat/threads/' + enc(threadId) + '/answers', Object.assign({ questionId: q.id }, body));
  } catch (e) {
    state.answers.set(q.id, { status: 'failed', label, decision, error: e.message });
    scheduleRender();
    return;
  }
  state.answers.set(q.id, { status: 'sent', label, decision, error: null });
  announce('Answer sent: ' + label);
  scheduleRender();
  if (threadId === state.threadId) fetchThread(threadId);
  refreshThreadsSoon();
}

function approvalCard(q) {
  const d = q.data;
  const card = document.createElement('div');
  card.className = 'hitl hitl-approval';
  card.dataset.testid = 'approval';
  if (d.hint && d.hint !== q.text) {
    const hint = document.createElement('p');
    hint.className = 'hitl-hint';
    hint.dataset.testid = 'approval-hint';
    hint.textContent = d.hint;
    card.append(hint);
  }
  if (d.subagent) {
    card.append(tag('Asked by the subagent ' + d.subagent, 'hitl-subagent small muted'));
  }
  const tools = document.createElement('ol');
  tools.className = 'hitl-tools';
  tools.setAttribute('aria-label', 'Tool calls to approve');
  for (const t of Array.isArray(d.tools) ? d.tools : []) {
    const li = document.createElement('li');
    li.className = 'hitl-tool';
    li.dataset.testid = 'approval-tool';
    const name = document.createElement('div');
    name.className = 'hitl-tool-name';
    const icon = tag('🔧', 'step-icon');
    icon.setAttribute('aria-hidden', 'true');
    const n = tag(String((t && t.name) || 'tool'), '');
    n.dataset.testid = 'approval-tool-name';
    name.append(icon, ' ', n);
    li.append(name, clippedPre(prettyJson(t && t.args), ARGS_LIMIT, 'approval-tool-args'));
    tools.append(li);
  }
  const actions = document.createElement('div');
  actions.className = 'hitl-actions';
  const { label: reasonLabel, input: reason } = labelledInput('reason', 'Reason (optional)', 'hitl-reason',
    'approval-reason', 'Reason (optional)');
  reason.maxLength = 2000;
  const approve = document.createElement('button');
  approve.type = 'button';
  approve.className = 'button primary small-button';
  approve.dataset.testid = 'approval-approve';
  approve.textContent = 'Approve';
  const reject = document.createElement('button');
  reject.type = 'button';
  reject.className = 'button danger small-button';
  reject.dataset.testid = 'approval-reject';
  reject.textContent = 'Reject';
  actions.append(reasonLabel, reason, approve, reject);
  card.append(tools, actions);
  const footer = hitlFooter(card);
  const decide = (decision) => {
    const why = reason.value.trim();
    const body = { decision };
    if (why) body.reason = why;
    const label = decision === 'approve' ? 'Approved' : 'Rejected';
    sendAnswer(q, body, label + (why ? ': ' + why : ''), decision);
  };
  approve.addEventListener('click', () => decide('approve'));
  reject.addEventListener('click', () => decide('reject'));
  reason.addEventListener('keydown', (e) => {
    // Enter in the reason box rejects: a reason is what a rejection gives
    if (e.key === 'Enter' && !e.isComposing && reason.value.trim()) {
      e.preventDefault();
      decide('reject');
    }
  });
  hitlUpdaters.set(card, (open) => {
    const s = hitlAnswerState(q, open);
    approve.disabled = !s.enabled;
    reject.disabled = !s.enabled;
    reason.disabled = !s.enabled;
    approve.setAttribute('aria-pressed', String(s.decision === 'approve'));
    reject.setAttribute('aria-pressed', String(s.decision === 'reject'));
    approve.classList.toggle('chosen', s.decision === 'approve');
    reject.classList.toggle('chosen', s.decision === 'reject');
    footer(s);
  });
  return card;
}

function askUserCard(q) {
  const d = q.data;
  const card = document.createElement('div');
  card.className = 'hitl hitl-ask';
  card.dataset.testid = 'ask-user';
  const questions = Array.isArray(d.questions) ? d.questions : [];
  const prefix = 'ask-' + Math.random().toString(36).slice(2);
  const readers = []; // per question: () => its answer (a string, a list of strings) or null
  const inputs = [];
  questions.forEach((one, i) => {
    const fs = document.createElement('fieldset');
    fs.className = 'hitl-question';
    fs.dataset.testid = 'ask-question';
    const multiple = !!(one && one.multiple);
    fs.dataset.multiple = String(multiple);
    const legend = document.createElement('legend');
    legend.textContent = String((one && one.question) || 'Question ' + (i + 1));
    if (multiple) legend.append(tag(' (choose any)', 'muted small'));
    fs.append(legend);
    const choices = Array.isArray(one && one.choices) ? one.choices.map(String) : [];
    if (choices.length === 0) {
      // no choices offered: a free answer
      const input = document.createElement('input');
      input.type = 'text';
      input.className = 'hitl-free';
      input.dataset.testid = 'ask-free';
      input.setAttribute('aria-label', legend.textContent);
      fs.append(input);
      inputs.push(input);
      readers.push(() => (input.value.trim() ? input.value.trim() : null));
    } else {
      const boxes = choices.map((choice, j) => {
        const label = document.createElement('label');
        label.className = 'hitl-choice';
        const input = document.createElement('input');
        input.type = multiple ? 'checkbox' : 'radio';
        input.name = prefix + '-' + i;
        input.value = choice;
        input.id = prefix + '-' + i + '-' + j;
        input.dataset.testid = 'ask-choice';
        label.append(input, ' ', tag(choice, ''));
        fs.append(label);
        inputs.push(input);
        return input;
      });
      readers.push(() => {
        const chosen = boxes.filter((b) => b.checked).map((b) => b.value);
        if (chosen.length === 0) return null;
        return multiple ? chosen : chosen[0];
      });
    }
    card.append(fs);
  });
  const actions = document.createElement('div');
  actions.className = 'hitl-actions';
  const send = document.createElement('button');
  send.type = 'button';
  send.className = 'button primary small-button';
  send.dataset.testid = 'ask-send';
  send.textContent = 'Send';
  const missing = tag('', 'muted small');
  actions.append(send, missing);
  card.append(actions);
  const footer = hitlFooter(card);
  let enabled = false;
  const refreshSend = () => {
    const left = readers.filter((r) => r() === null).length;
    send.disabled = !enabled || left > 0 || readers.length === 0;
    missing.textContent = enabled && left > 0 ? (left === 1 ? 'Answer the question to send.'
      : 'Answer all ' + readers.length + ' questions to send.') : '';
  };
  card.addEventListener('change', refreshSend);
  card.addEventListener('input', refreshSend);
  send.addEventListener('click', () => {
    const answers = readers.map((r) => r());
    if (answers.some((a) => a === null)) return;
    const label = answers.map((a) => (Array.isArray(a) ? a.join(', ') : a)).join('; ');
    sendAnswer(q, { answers }, label, '');
  });
  hitlUpdaters.set(card, (open) => {
    const s = hitlAnswerState(q, open);
    enabled = s.enabled;
    for (const input of inputs) input.disabled = !enabled;
    refreshSend();
    footer(s);
  });
  return card;
}
