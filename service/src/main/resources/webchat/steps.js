// kagent step cards (one tool call or one tool result, folded), and the clipped <pre> they and approvals show.

import { timeEl, tag } from './dom.js';
import { prettyJson, count } from './format.js';

const STEP_LIMIT = 2000;

/** A <pre> of {@code text} cut after {@code limit} characters, saying so, with a "Show all" toggle. */
export function clippedPre(text, limit, testid) {
  const wrap = document.createElement('div');
  wrap.className = 'clipped';
  const pre = document.createElement('pre');
  pre.className = 'code';
  pre.dataset.testid = testid;
  pre.tabIndex = 0; // scrollable by keyboard
  wrap.append(pre);
  if (text.length <= limit) {
    pre.textContent = text;
    return wrap;
  }
  let cut = limit;
  const c = text.charCodeAt(cut - 1);
  if (c >= 0xd800 && c <= 0xdbff) cut--; // not in the middle of a character
  const short = text.slice(0, cut) + '…';
  const row = document.createElement('div');
  row.className = 'clipped-note small muted';
  const note = document.createElement('span');
  note.dataset.testid = 'clipped-note';
  const toggle = document.createElement('button');
  toggle.type = 'button';
  toggle.className = 'link-button small';
  toggle.dataset.testid = 'show-all';
  const show = (all) => {
    pre.textContent = all ? text : short;
    wrap.dataset.truncated = String(!all);
    note.textContent = all ? 'All ' + count(text.length) + ' characters.'
      : 'Showing the first ' + count(cut) + ' of ' + count(text.length) + ' characters.';
    toggle.textContent = all ? 'Show less' : 'Show all';
    toggle.setAttribute('aria-expanded', String(all));
  };
  toggle.addEventListener('click', () => show(wrap.dataset.truncated === 'true'));
  show(false);
  row.append(note, ' ', toggle);
  wrap.append(row);
  return wrap;
}

// step cards: one tool call or one tool result, folded

export function createStepPost(el) {
  el.setAttribute('aria-label', 'Tool step');
  const details = document.createElement('details');
  details.className = 'step-card';
  details.dataset.testid = 'step-card';
  const summary = document.createElement('summary');
  summary.dataset.testid = 'step-summary';
  const body = document.createElement('div');
  body.className = 'step-body';
  details.append(summary, body);
  el.append(details);
  return el;
}

export function updateStepPost(el, p) {
  const d = p.data && typeof p.data === 'object' ? p.data : {};
  const version = JSON.stringify([p.text, d]);
  if (el.dataset.version === version) return;
  el.dataset.version = version;
  const result = d.kind === 'result';
  const failed = result && d.error === true;
  const name = String(d.name || p.text || 'tool');
  el.dataset.stepKind = result ? 'result' : 'call';
  el.dataset.error = String(failed);
  const summary = el.querySelector('summary');
  const icon = tag(result ? (failed ? '✗' : '✓') : '🔧', 'step-icon');
  icon.setAttribute('aria-hidden', 'true');
  const label = tag(name, 'step-name');
  label.dataset.testid = 'step-name';
  const what = tag(result ? (failed ? 'failed' : 'result') : 'call', 'step-what muted small');
  summary.replaceChildren(icon, ' ', label, ' ', what, timeEl(p.createdAt));
  const heading = tag(result ? (failed ? 'Error' : 'Result') : 'Arguments', 'step-heading small muted');
  el.querySelector('.step-body').replaceChildren(heading, clippedPre(prettyJson(d.detail), STEP_LIMIT, 'step-detail'));
}
