// The JSON API: every call carries the API key when there is one; a POST that failed on the network or with a
// retryable status is repeated with the same body (and so the same messageId, which makes it safe).

import { auth, withAuth, renewKey } from './auth.js';

// Delays between attempts of a POST that failed on the network or with a retryable status.
const RETRY_DELAYS_MS = [500, 1000, 2000, 4000, 8000];

class ApiError extends Error {
  constructor(status, body) {
    super((body && body.error) || (status ? 'HTTP ' + status : 'network error'));
    this.status = status;
    this.field = body && body.field;
    // 0 = no answer at all (network); 408, 429 and 5xx may succeed when repeated
    this.retryable = status === 0 || status === 408 || status === 429 || status >= 500;
  }
}

export async function api(method, path, body) {
  let res;
  const usedKey = auth.key;
  try {
    res = await fetch(path, {
      method,
      headers: withAuth(body === undefined ? { Accept: 'application/json' }
        : { 'Content-Type': 'application/json', Accept: 'application/json' }),
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch (e) {
    throw new ApiError(0, null);
  }
  const text = await res.text().catch(() => '');
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch (e) {
    json = null;
  }
  if (res.status === 401 && renewKey(usedKey)) {
    return api(method, path, body);
  }
  if (!res.ok) {
    throw new ApiError(res.status, json);
  }
  return json;
}

/** POSTs with the same body (and so the same messageId) until it succeeds or fails for good. */
export async function postWithRetry(path, body, onRetry) {
  for (let attempt = 0; ; attempt++) {
    try {
      return await api('POST', path, body);
    } catch (e) {
      if (!(e instanceof ApiError) || !e.retryable || attempt >= RETRY_DELAYS_MS.length) {
        throw e;
      }
      if (onRetry) onRetry(attempt + 1, e);
      await sleep(RETRY_DELAYS_MS[attempt]);
    }
  }
}

export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** A message id for safe retries: crypto.randomUUID where available (secure contexts), else a v4 UUID by hand. */
export function newMessageId() {
  const c = window.crypto;
  if (c && typeof c.randomUUID === 'function') {
    try {
      return c.randomUUID();
    } catch (e) { /* fall through */ }
  }
  const bytes = new Uint8Array(16);
  if (c && typeof c.getRandomValues === 'function') {
    c.getRandomValues(bytes);
  } else {
    for (let i = 0; i < 16; i++) bytes[i] = Math.floor(Math.random() * 256);
  }
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
  return hex.slice(0, 8) + '-' + hex.slice(8, 12) + '-' + hex.slice(12, 16) + '-' + hex.slice(16, 20) + '-' + hex.slice(20);
}
