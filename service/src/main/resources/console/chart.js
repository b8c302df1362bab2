// A small SVG chart of the last hour, minute by minute: requests and errors (bars, left scale), p50 and p99 in
// milliseconds (lines, right scale). No library: sixty points need none.

const NS = 'http://www.w3.org/2000/svg';
const W = 720, H = 180, PAD = 28;

function el(name, attrs) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  return e;
}

export function chart(minutes) {
  const svg = el('svg', { viewBox: `0 0 ${W} ${H}`, role: 'img', 'aria-label': 'Requests, errors, p50 and p99 over the last hour' });
  const n = minutes.length;
  const maxReq = Math.max(1, ...minutes.map((m) => m.requests));
  const maxMs = Math.max(1, ...minutes.map((m) => m.p99Ms || 0));
  const bw = (W - 2 * PAD) / n;
  const y = (v, max) => H - PAD - (v / max) * (H - 2 * PAD);
  minutes.forEach((m, i) => {
    const x = PAD + i * bw;
    if (m.requests > 0) {
      svg.appendChild(el('rect', { x, y: y(m.requests, maxReq), width: Math.max(1, bw - 1),
        height: H - PAD - y(m.requests, maxReq), fill: '#9bb7e0', 'data-requests': m.requests }));
    }
    if (m.errors > 0) {
      svg.appendChild(el('rect', { x, y: y(m.errors, maxReq), width: Math.max(1, bw - 1),
        height: H - PAD - y(m.errors, maxReq), fill: '#e08d87', 'data-errors': m.errors }));
    }
  });
  for (const [key, color] of [['p50Ms', '#137333'], ['p99Ms', '#7a4cc2']]) {
    const pts = minutes.map((m, i) => (m[key] == null ? null : [PAD + i * bw + bw / 2, y(m[key], maxMs)]))
      .filter((p) => p);
    if (pts.length > 1) {
      svg.appendChild(el('polyline', { points: pts.map((p) => p.join(',')).join(' '), fill: 'none', stroke: color,
        'stroke-width': 2 }));
    }
    // a dot per minute too: one timed minute is no line
    for (const [cx, cy] of pts) svg.appendChild(el('circle', { cx, cy, r: 3, fill: color, 'data-series': key }));
  }
  svg.appendChild(el('line', { x1: PAD, y1: H - PAD, x2: W - PAD, y2: H - PAD, stroke: '#98a2b3' }));
  const label = (x, yy, text, anchor) => {
    const t = el('text', { x, y: yy, 'font-size': 10, fill: '#667085', 'text-anchor': anchor });
    t.textContent = text;
    svg.appendChild(t);
  };
  label(PAD, PAD - 8, `${maxReq} req/min`, 'start');
  label(W - PAD, PAD - 8, `${maxMs} ms`, 'end');
  label(PAD, H - 8, '-60 min', 'start');
  label(W - PAD, H - 8, 'now', 'end');
  const legend = document.createElement('p');
  legend.className = 'legend';
  legend.innerHTML = '<span style="color:#5b84c4">■ requests</span><span style="color:#c4544c">■ errors</span>'
    + '<span style="color:#137333">— p50</span><span style="color:#7a4cc2">— p99</span>';
  const box = document.createElement('div');
  box.append(svg, legend);
  return box;
}
