// The console's JSON API. Beyond loopback it needs the admin token, or an API key or token with an AccessPolicy's admin
// grant: the page asks for it once, keeps it in this tab (sessionStorage) and sends it as a Bearer header; a token in the URL would end up in logs and history.

const TOKEN_STORE = 'switchboard.adminToken';
let token = read();
let asked = false;

function read() {
  try { return sessionStorage.getItem(TOKEN_STORE); } catch (e) { return null; }
}

export async function get(path) {
  const used = token;
  const headers = { Accept: 'application/json' };
  if (token) headers.Authorization = 'Bearer ' + token;
  const res = await fetch(path, { headers, credentials: 'same-origin', cache: 'no-store' });
  const body = await res.json().catch(() => null);
  if (res.status === 401 && !asked) {
    asked = true;
    const entered = window.prompt('The console needs the admin token (or an API key with an admin grant). It is kept in this tab only.', '');
    if (entered) {
      token = entered.trim();
      try { sessionStorage.setItem(TOKEN_STORE, token); } catch (e) { /* private mode */ }
      if (token !== used) return get(path);
    }
  }
  if (!res.ok) throw new Error((body && body.error) || 'HTTP ' + res.status);
  return body;
}
