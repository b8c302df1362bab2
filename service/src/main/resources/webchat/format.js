// Formatting and comparing what the API sends: instants, counts, names, JSON.

export const enc = encodeURIComponent;

function time(v) {
  const t = v ? Date.parse(v) : NaN;
  return Number.isNaN(t) ? 0 : t;
}

/** Compares two ISO instants to the nanosecond (the server writes up to 9 fraction digits). */
export function compareInstants(a, b) {
  const pa = instantParts(a);
  const pb = instantParts(b);
  return pa[0] - pb[0] || pa[1] - pb[1];
}

function instantParts(v) {
  const m = typeof v === 'string' && v.match(/^(.*T\d\d:\d\d(?::\d\d)?)(?:\.(\d+))?(Z|[+-]\d\d:?\d\d)?$/);
  if (!m) return [time(v), 0];
  const seconds = Date.parse(m[1] + (m[3] || 'Z'));
  return [Number.isNaN(seconds) ? 0 : seconds, Number((m[2] || '').padEnd(9, '0').slice(0, 9))];
}

export function num(v) {
  return typeof v === 'number' ? v : Number(v) || 0;
}

/** JSON text pretty-printed; a JSON string as its text; anything that is not JSON as it is. */
export function prettyJson(value) {
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') {
    try {
      return JSON.stringify(value, null, 2);
    } catch (e) {
      return String(value);
    }
  }
  try {
    const v = JSON.parse(value);
    return typeof v === 'string' ? v : JSON.stringify(v, null, 2);
  } catch (e) {
    return value;
  }
}

export function count(n) {
  return Number(n).toLocaleString('en-US');
}

export function initials(name) {
  const words = String(name || '?').replace(/@.*/, '').split(/[\s._-]+/).filter(Boolean);
  const letters = words.length > 1 ? words[0][0] + words[1][0] : (words[0] || '?').slice(0, 2);
  return letters.toUpperCase();
}

export function safeClass(s) {
  return String(s || 'unknown').replace(/[^a-z0-9_-]/gi, '');
}

export function relativeTime(iso) {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '';
  const s = Math.max(0, (Date.now() - t) / 1000);
  if (s < 45) return 'just now';
  if (s < 3600) return Math.round(s / 60) + ' min ago';
  if (s < 86400) return Math.round(s / 3600) + ' h ago';
  return new Date(t).toLocaleDateString();
}
