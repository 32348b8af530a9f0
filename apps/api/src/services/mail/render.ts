/**
 * The one renderer of every email: a template lists blocks, and each block is written once as
 * plain text and once as HTML. Text blocks are separated by a blank line; every value is
 * escaped in the HTML, since names and addresses come from the public.
 */
export type Block =
  /** A paragraph. */
  | string
  /** Lines kept together, one under the other (a small table of facts). */
  | { lines: string[] }
  /** A short list after its lead-in line. */
  | { intro: string; items: string[] }
  /** The message's action: a button-like anchor in HTML, the bare URL in text. */
  | { url: string; label: string };

export interface Rendered {
  text: string;
  html: string;
}

export function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

const p = (s: string) => `<p>${escapeHtml(s)}</p>`;

function blockText(b: Block): string {
  if (typeof b === 'string') return b;
  if ('lines' in b) return b.lines.join('\n');
  if ('items' in b) return [b.intro, ...b.items.map((i) => `- ${i}`)].join('\n');
  return b.url;
}

function blockHtml(b: Block): string {
  if (typeof b === 'string') return p(b);
  if ('lines' in b) return `<p>${b.lines.map(escapeHtml).join('<br>')}</p>`;
  if ('items' in b) return `${p(b.intro)}<ul>${b.items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul>`;
  // The URL is written out too, for a mail client that shows no links.
  return `<p><a href="${escapeHtml(b.url)}">${escapeHtml(b.label)}</a></p>${p(b.url)}`;
}

export function render(blocks: Block[]): Rendered {
  return {
    text: blocks.map(blockText).join('\n\n'),
    html: `<!doctype html><html><body>${blocks.map(blockHtml).join('')}</body></html>`,
  };
}
