// Number formats shared by the report writers (lib/report.mjs, lib/report-stages.mjs) and the stages' targets.
const none = (x) => x === null || x === undefined || Number.isNaN(x);

/** 12,345 */
export const f0 = (x) => (none(x) ? 'n/a' : Math.round(x).toLocaleString('en-US'));
export const f1 = (x) => (none(x) ? 'n/a' : x.toFixed(1));
export const f2 = (x) => (none(x) ? 'n/a' : x.toFixed(2));
/** Milliseconds with the precision their size deserves: 0.50, 15.4, 293. */
export const ms = (x) => (none(x) ? 'n/a' : x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : String(Math.round(x)));
/** A ratio: 0.66x */
export const x2 = (x) => (none(x) || !Number.isFinite(x) ? 'n/a' : `${x.toFixed(2)}x`);
export const mb = (b) => (none(b) ? 'n/a' : `${(b / 1024 / 1024).toFixed(1)} MB`);
/** A table cell's text: pipes escaped. */
export const pipe = (s) => String(s).replaceAll('|', '\\|');
/** `2026-11-27T23:37:27.488Z` -> `2026-11-27 23:37` (UTC). */
export const minute = (iso) => String(iso).slice(0, 16).replace('T', ' ');
