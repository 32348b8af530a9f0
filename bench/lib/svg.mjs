// A small line-chart writer (plain SVG, no external service): panels of series over the dealer count.

const COLORS = ['#1c7ed6', '#e8590c', '#2b8a3e', '#ae3ec9', '#c92a2a', '#5f3dc4', '#087f5b', '#495057'];
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[c]);

function niceNumber(v) {
  if (v >= 1e6) return `${+(v / 1e6).toFixed(1)}M`;
  if (v >= 1e3) return `${+(v / 1e3).toFixed(1)}k`;
  return `${+v.toPrecision(3)}`;
}

/** Tick values for an axis: decades (log) or 5 even steps from 0 (linear). */
function ticks(min, max, log) {
  if (log) {
    const out = [];
    for (let e = Math.floor(Math.log10(min)); e <= Math.ceil(Math.log10(max)); e++) out.push(10 ** e);
    return out;
  }
  const step = max / 5 || 1;
  const mag = 10 ** Math.floor(Math.log10(step));
  const nice = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((m) => m >= step) ?? step;
  const out = [];
  for (let v = 0; v <= max + 1e-9; v += nice) out.push(v);
  if (out.at(-1) < max) out.push(out.at(-1) + nice);
  return out;
}

/**
 * One panel at (x0, y0) of size w x h. series: [{ name, points: [[x, y]] }] (y null = not measured).
 * Returns SVG elements as a string.
 */
export function panel({ x0, y0, w, h, title, yLabel, series, logX = true, logY = false, xLabel = 'dealers' }) {
  const pts = series.flatMap((s) => s.points.filter(([, y]) => y !== null && y !== undefined && (!logY || y > 0)));
  const L = [];
  const m = { l: 64, r: 16, t: 28, b: 40 };
  const pw = w - m.l - m.r;
  const ph = h - m.t - m.b - 16 * Math.ceil(series.length / 2);
  L.push(`<text x="${x0 + w / 2}" y="${y0 + 18}" text-anchor="middle" font-weight="bold">${esc(title)}</text>`);
  if (!pts.length) {
    L.push(`<text x="${x0 + w / 2}" y="${y0 + h / 2}" text-anchor="middle" fill="#868e96">no data</text>`);
    return L.join('\n');
  }
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  const xt = ticks(Math.min(...xs), Math.max(...xs), logX);
  const yt = ticks(logY ? Math.min(...ys) : 0, Math.max(...ys), logY);
  const [xmin, xmax] = [xt[0], xt.at(-1)];
  const [ymin, ymax] = [yt[0], yt.at(-1)];
  const f = (v, a, b, log) =>
    log ? (Math.log10(v) - Math.log10(a)) / (Math.log10(b) - Math.log10(a) || 1) : (v - a) / (b - a || 1);
  const X = (v) => x0 + m.l + f(v, xmin, xmax, logX) * pw;
  const Y = (v) => y0 + m.t + ph - f(v, ymin, ymax, logY) * ph;
  L.push(`<rect x="${x0 + m.l}" y="${y0 + m.t}" width="${pw}" height="${ph}" fill="none" stroke="#ced4da"/>`);
  for (const v of yt) {
    L.push(`<line x1="${x0 + m.l}" x2="${x0 + m.l + pw}" y1="${Y(v)}" y2="${Y(v)}" stroke="#f1f3f5"/>`);
    L.push(`<text x="${x0 + m.l - 6}" y="${Y(v) + 4}" text-anchor="end" font-size="11">${niceNumber(v)}</text>`);
  }
  for (const v of xt) {
    L.push(`<line x1="${X(v)}" x2="${X(v)}" y1="${y0 + m.t}" y2="${y0 + m.t + ph}" stroke="#f1f3f5"/>`);
    L.push(`<text x="${X(v)}" y="${y0 + m.t + ph + 16}" text-anchor="middle" font-size="11">${niceNumber(v)}</text>`);
  }
  L.push(
    `<text x="${x0 + m.l + pw / 2}" y="${y0 + m.t + ph + 32}" text-anchor="middle" font-size="11">${esc(xLabel)}${logX ? ' (log scale)' : ''}</text>`,
  );
  L.push(
    `<text transform="translate(${x0 + 14} ${y0 + m.t + ph / 2}) rotate(-90)" text-anchor="middle" font-size="11">${esc(yLabel)}${logY ? ' (log)' : ''}</text>`,
  );
  series.forEach((s, i) => {
    const c = COLORS[i % COLORS.length];
    const ok = s.points.filter(([, y]) => y !== null && y !== undefined && (!logY || y > 0));
    if (ok.length > 1)
      L.push(
        `<polyline fill="none" stroke="${c}" stroke-width="2" points="${ok.map(([x, y]) => `${X(x).toFixed(1)},${Y(y).toFixed(1)}`).join(' ')}"/>`,
      );
    for (const [x, y] of ok)
      L.push(
        `<circle cx="${X(x).toFixed(1)}" cy="${Y(y).toFixed(1)}" r="3.5" fill="${c}"><title>${esc(s.name)}: ${niceNumber(y)} at ${niceNumber(x)}</title></circle>`,
      );
    const lx = x0 + m.l + (i % 2) * (pw / 2);
    const ly = y0 + m.t + ph + 48 + 16 * Math.floor(i / 2);
    L.push(
      `<rect x="${lx}" y="${ly - 9}" width="10" height="10" fill="${c}"/><text x="${lx + 14}" y="${ly}" font-size="11">${esc(s.name)}</text>`,
    );
  });
  return L.join('\n');
}

/** Panels in a grid of `cols` columns, each w x h, as one SVG document. */
export function svgDoc(panels, { cols = 2, w = 480, h = 340, title = '' } = {}) {
  const rows = Math.ceil(panels.length / cols);
  const top = title ? 30 : 0;
  const W = cols * w;
  const H = rows * h + top;
  const body = panels.map((p, i) => panel({ ...p, x0: (i % cols) * w, y0: top + Math.floor(i / cols) * h, w, h }));
  // The document's own <title> first: what a screen reader (and Biome's a11y lint) names the chart by.
  return `<svg xmlns="http://www.w3.org/2000/svg" role="img" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">
<title>${esc(title || 'Benchmark chart')}</title>
<rect width="${W}" height="${H}" fill="#fff"/>
${title ? `<text x="${W / 2}" y="20" text-anchor="middle" font-size="14" font-weight="bold">${esc(title)}</text>` : ''}
${body.join('\n')}
</svg>
`;
}
