/**
 * The one renderer of every email: a template lists blocks, and each block is written once as
 * plain text and once as HTML. Text blocks are separated by a blank line; every value is
 * escaped in the HTML, since names and addresses come from the public.
 *
 * Inert text (issue 45, decision 1023): a link is made only by a `{ url, label }` block. Anywhere
 * else (a name, a note, a reason typed by someone), whatever a mail client would turn into a link
 * is written inert, in both parts: `https://x.example/a` becomes `https[:]//x[.]example/a`, and
 * `x.example` becomes `x[.]example`; email addresses stay as they are. The one exception is a URL
 * of the site itself (the `site` given to render: PUBLIC_URL), which a template writes in a
 * sentence ("go to https://site/login"). A template that forgets to name its site gets its own
 * URLs written inert too: never the other way round.
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

/**
 * Control characters (a line break inside a value would forge a line), zero-width and bidirectional
 * marks (they hide or reorder what a link is): a space, or nothing.
 */
const CONTROL = /\p{Cc}|[\u2028\u2029]/gu;
const HIDDEN = /[\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;
/** A run that is not whitespace (a word, a URL, an address). */
const RUN = /\S+/g;
const EMAIL = /^[<([]?[\w.+-]+@[\w-]+(\.[\w-]+)+[>)\].,;:!?]*$/;

/** The site's own origin and path as given, without a trailing slash (null: none named). */
const siteOf = (site: string | undefined) => (site ? site.replace(/\/+$/, '') : null);

function isSiteUrl(run: string, site: string | null): boolean {
  const url = run.replace(/^[(<["']+/, '');
  if (!site || !url.startsWith(site)) return false;
  // https://site.example.evil.com starts with https://site.example: after it, only a path, a query
  // or a fragment, or the sentence's closing punctuation.
  return /^(?:[/?#]\S*|[).,;:!?]*)$/.test(url.slice(site.length));
}

/**
 * `s` with every link a mail client would make written inert (see above): a scheme's `://` and the
 * dots of a host name bracketed. Digits-only dots (amounts, IP addresses, versions) stay.
 */
export function inert(s: string, site?: string): string {
  const own = siteOf(site);
  return s
    .replace(CONTROL, ' ')
    .replace(HIDDEN, '')
    .replace(RUN, (run) => {
      if (isSiteUrl(run, own) || EMAIL.test(run)) return run;
      return run.replace(/:\/\//g, '[:]//').replace(/(?<=[\p{L}\p{N}_-])\.(?=[\p{L}\p{N}_-]*\p{L})/gu, '[.]');
    });
}

const p = (s: string, site: string | undefined) => `<p>${escapeHtml(inert(s, site))}</p>`;

function blockText(b: Block, site: string | undefined): string {
  if (typeof b === 'string') return inert(b, site);
  if ('lines' in b) return b.lines.map((l) => inert(l, site)).join('\n');
  if ('items' in b) return [inert(b.intro, site), ...b.items.map((i) => `- ${inert(i, site)}`)].join('\n');
  return b.url;
}

function blockHtml(b: Block, site: string | undefined): string {
  if (typeof b === 'string') return p(b, site);
  if ('lines' in b) return `<p>${b.lines.map((l) => escapeHtml(inert(l, site))).join('<br>')}</p>`;
  if ('items' in b)
    return `${p(b.intro, site)}<ul>${b.items.map((i) => `<li>${escapeHtml(inert(i, site))}</li>`).join('')}</ul>`;
  // The URL is written out too, for a mail client that shows no links; the label is text.
  return `<p><a href="${escapeHtml(b.url)}">${escapeHtml(inert(b.label, site))}</a></p><p>${escapeHtml(b.url)}</p>`;
}

/**
 * The text and HTML of `blocks`. `site`: the PUBLIC_URL, whose URLs may stand in a sentence; every
 * other URL-like text outside a `{ url, label }` block is written inert.
 */
export function render(blocks: Block[], site?: string): Rendered {
  return {
    text: blocks.map((b) => blockText(b, site)).join('\n\n'),
    html: `<!doctype html><html><body>${blocks.map((b) => blockHtml(b, site)).join('')}</body></html>`,
  };
}
