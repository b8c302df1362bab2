// The console: the registry (every agent, reachable or not from the server's card probe) and the bridge's sessions
// on #/, one agent on #/agents/<id>. It polls the API while shown; nothing here changes anything on the server.

import { get } from './api.js';
import { chart } from './chart.js';
import { tryIt } from './tryit.js';

const $ = (id) => document.getElementById(id);
let timer = null;

function text(tag, value, attrs = {}) {
  const e = document.createElement(tag);
  e.textContent = value == null ? '—' : String(value);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

function facts(dl, pairs) {
  dl.replaceChildren();
  for (const [k, v] of pairs) dl.append(text('dt', k), text('dd', v));
}

function ago(iso) {
  if (!iso) return null;
  const s = Math.round((Date.now() - Date.parse(iso)) / 1000);
  return s < 60 ? `${s} s ago` : s < 3600 ? `${Math.round(s / 60)} min ago` : new Date(iso).toLocaleString();
}

function badge(a) {
  const state = a.reachable == null ? 'unknown' : String(a.reachable);
  const label = { true: 'reachable', false: 'unreachable', unknown: 'not probed yet' }[state];
  const b = text('span', label, { class: 'badge', 'data-reachable': state, 'data-testid': 'reachable-' + a.id });
  if (a.probeError) b.title = a.probeError;
  return b;
}

async function showRegistry() {
  const data = await get('/console/api/agents');
  $('probe-interval').textContent = data.probeIntervalSeconds;
  const rows = data.agents.map((a) => {
    const tr = document.createElement('tr');
    tr.dataset.agent = a.id;
    const link = text('a', a.id, { href: '#/agents/' + encodeURIComponent(a.id), 'data-testid': 'agent-link-' + a.id });
    const first = document.createElement('td');
    first.append(link);
    const reach = document.createElement('td');
    reach.append(badge(a));
    tr.append(first, reach, text('td', a.origin), text('td', a.url, { class: 'url' }), text('td', a.dialect),
      text('td', a.version), text('td', a.ttlLeftSeconds == null ? null : a.ttlLeftSeconds + ' s'),
      text('td', ago(a.lastSeen)), text('td', `${a.inFlight} / ${a.maxConcurrency}`));
    return tr;
  });
  $('agent-rows').replaceChildren(...rows);
  $('no-agents').hidden = rows.length > 0;
  const resources = await get('/console/api/resources');
  $('resources-section').hidden = !resources.watchMode;
  $('resource-rows').replaceChildren(...resources.resources.map((r) => {
    const tr = text('tr', '', { 'data-resource': r.kind + '/' + r.name, 'data-ready': r.ready });
    tr.append(text('td', r.kind), text('td', r.name), text('td', r.ready), text('td', r.reason), text('td', r.message),
      text('td', r.observedGeneration));
    return tr;
  }));
  const bridge = await get('/console/api/bridge');
  const pairs = [['Sessions', bridge.sessions], ['With unfinished turns', bridge.sessionsWithUnfinishedTurns]];
  for (const [state, n] of Object.entries(bridge.turnsByState)) pairs.push([`Turns ${state} (24 h)`, n]);
  facts($('bridge'), pairs);
  return data.probeIntervalSeconds;
}

async function showAgent(id) {
  const a = await get('/console/api/agents/' + encodeURIComponent(id));
  $('agent-title').textContent = a.id;
  $('agent-title').append(' ', badge(a));
  facts($('agent-facts'), [['Name', a.name], ['Origin', a.origin], ['URL', a.url], ['Dialect', a.dialect],
    ['Version', a.version], ['Protocol versions', (a.protocolVersions || []).join(', ')],
    ['Calls in flight', `${a.inFlight} / ${a.maxConcurrency}`], ['Last probe', ago(a.probedAt)],
    ['Probe error', a.probeError], ['TTL left', a.ttlLeftSeconds == null ? null : a.ttlLeftSeconds + ' s']]);
  facts($('agent-limits'), Object.entries(a.limits || {}));
  $('card-fetched').textContent = a.cardFetched ? JSON.stringify(a.cardFetched, null, 2) : 'No card fetched yet.';
  $('card-rewritten').textContent = a.cardRewritten ? JSON.stringify(a.cardRewritten, null, 2) : '—';
  $('chart').replaceChildren(chart(a.lastHour));
  $('card-findings').replaceChildren(...(a.cardFindings || []).map((f) => {
    const li = text('li', '', { 'data-row': f.row, 'data-verdict': f.verdict });
    li.append(text('span', f.verdict, { class: 'verdict' }), ' ', text('code', f.row), ' — ' + f.reason);
    return li;
  }));
  return 5;
}

async function render() {
  clearTimeout(timer);
  const m = location.hash.match(/^#\/agents\/(.+)$/);
  $('registry-view').hidden = !!m;
  $('agent-view').hidden = !m;
  let next = 5;
  try {
    next = m ? await showAgent(decodeURIComponent(m[1])) : await showRegistry();
    $('status').textContent = 'updated ' + new Date().toLocaleTimeString();
    $('status').dataset.state = 'ok';
  } catch (e) {
    $('status').textContent = e.message;
    $('status').dataset.state = 'error';
  }
  // at least as often as the probe, so a change shows within one probe interval
  timer = setTimeout(render, Math.max(1, Math.min(5, next)) * 1000);
}

$('try-form').addEventListener('submit', async (e) => {
  e.preventDefault();
  const m = location.hash.match(/^#\/agents\/(.+)$/);
  if (!m) return;
  const list = $('try-events');
  list.replaceChildren();
  const show = (line) => list.append(text('li', line, { 'data-testid': 'try-event' }));
  try {
    await tryIt(decodeURIComponent(m[1]), $('try-input').value, show);
  } catch (err) {
    show('failed: ' + err.message);
  }
});

window.addEventListener('hashchange', () => {
  $('try-events').replaceChildren();
  render();
});
render();
