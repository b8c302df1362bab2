// Identity. On a server reachable beyond this machine the API wants an identity. Behind a signing-in proxy the
// browser already has one; otherwise the page asks for an API key once, keeps it in this tab
// (sessionStorage) and sends it as a Bearer header, also on the live stream (fetch, not EventSource, which
// cannot send headers; a key in the URL would end up in logs and history).

const KEY_STORE = 'switchboard.apiKey';

export const auth = { key: readKey(), asked: false };

function readKey() {
  try {
    return sessionStorage.getItem(KEY_STORE);
  } catch (e) {
    return null;
  }
}

export function withAuth(headers) {
  if (auth.key) headers.Authorization = 'Bearer ' + auth.key;
  return headers;
}

/** After a 401 to a call made with {@code usedKey}: true when there is a new key to try the call with. */
export function renewKey(usedKey) {
  if (auth.key && auth.key !== usedKey) return true; // another call already got one
  if (auth.key === usedKey && usedKey) {
    auth.key = null;
    try { sessionStorage.removeItem(KEY_STORE); } catch (e) { /* private mode */ }
  }
  if (auth.asked) return false;
  auth.asked = true;
  const key = window.prompt(
    'This chat needs an API key (ask whoever runs this Switchboard). It is kept in this tab only.', '');
  if (!key || !key.trim()) return false;
  auth.key = key.trim();
  try { sessionStorage.setItem(KEY_STORE, auth.key); } catch (e) { /* kept in memory only */ }
  return true;
}
