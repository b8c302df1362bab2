// "Try it": sends one message to the agent through the gateway (POST /a2a/<id>, message/stream) and shows the
// stream's events as they arrive. The gateway asks for an API key beyond loopback (not the admin token): the page
// asks for one on a 401 and keeps it in this tab, under the same name the web chat uses.

const KEY_STORE = 'switchboard.apiKey';

function key() {
  try { return sessionStorage.getItem(KEY_STORE); } catch (e) { return null; }
}

function body(text) {
  const id = (crypto.randomUUID && crypto.randomUUID()) || String(Date.now());
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'message/stream', params: { message: {
    kind: 'message', messageId: id, role: 'user', parts: [{ kind: 'text', text }] } } });
}

/** What one event says, in a line: the text of its parts, else its kind and state. */
function describe(event) {
  const r = event.result || {};
  if (event.error) return 'error ' + event.error.code + ': ' + event.error.message;
  const parts = (r.parts || (r.status && r.status.message && r.status.message.parts)
    || (r.artifact && r.artifact.parts) || []).filter((p) => p.text != null).map((p) => p.text);
  const state = r.status && r.status.state ? ' [' + r.status.state + ']' : '';
  return (r.kind || 'event') + state + (parts.length ? ': ' + parts.join('') : '');
}

export async function tryIt(agentId, text, show, retried = false) {
  const headers = { 'Content-Type': 'application/json', Accept: 'text/event-stream' };
  const k = key();
  if (k) headers.Authorization = 'Bearer ' + k;
  const res = await fetch('/a2a/' + encodeURIComponent(agentId), { method: 'POST', headers, body: body(text),
    credentials: 'same-origin', cache: 'no-store' });
  if (res.status === 401 && !retried) {
    const entered = window.prompt('The gateway needs an API key. It is kept in this tab only.', '');
    if (entered) {
      try { sessionStorage.setItem(KEY_STORE, entered.trim()); } catch (e) { /* private mode */ }
      return tryIt(agentId, text, show, true);
    }
  }
  if (!(res.headers.get('Content-Type') || '').startsWith('text/event-stream')) {
    const t = await res.text();
    try { show(describe(JSON.parse(t))); } catch (e) { show('HTTP ' + res.status + ': ' + t.slice(0, 300)); }
    return;
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffered += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffered.indexOf('\n\n')) >= 0) {
      const frame = buffered.slice(0, end);
      buffered = buffered.slice(end + 2);
      const data = frame.split('\n').filter((l) => l.startsWith('data:')).map((l) => l.slice(5).trim()).join('\n');
      if (data) {
        try { show(describe(JSON.parse(data))); } catch (e) { show(data.slice(0, 300)); }
      }
    }
  }
}
