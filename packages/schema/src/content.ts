import { z } from 'zod';
import { MAX_TEXT } from './common';
import { tier } from './dealer';

/**
 * The player URL inside an admin-supplied "Vimeo embed code" (an <iframe> snippet, a
 * player URL or a vimeo.com page URL). Only the video id and its privacy hash survive;
 * everything else the admin pasted is discarded, so no admin HTML ever reaches a page.
 */
export function extractVimeoPlayerUrl(input: string | null | undefined): string | null {
  if (!input) return null;
  const text = input.slice(0, 10_000);
  const player = text.match(/https?:\/\/player\.vimeo\.com\/video\/(\d{1,12})(?:\?([^"'\s<>]*))?/i);
  if (player) {
    const hash = player[2] ? new URLSearchParams(player[2].replace(/&amp;/g, '&')).get('h') : null;
    return playerUrl(player[1]!, hash);
  }
  const page = text.match(
    /^\s*https?:\/\/(?:www\.)?vimeo\.com\/(?:video\/)?(\d{1,12})(?:\/([0-9a-f]{6,20}))?\/?(?:[?#]\S*)?\s*$/i,
  );
  if (page) return playerUrl(page[1]!, page[2] ?? null);
  return null;
}

function playerUrl(id: string, hash: string | null): string {
  const params = new URLSearchParams();
  if (hash && /^[0-9a-f]{6,20}$/i.test(hash)) params.set('h', hash);
  params.set('dnt', '1');
  return `https://player.vimeo.com/video/${id}?${params.toString()}`;
}

export const VIMEO_EMBED_MESSAGE = 'Paste a Vimeo embed code or a vimeo.com video link';

export const updateLandingVideo = z.object({
  videoId: z.uuid({ error: 'Unknown video' }),
  title: z.string().trim().max(MAX_TEXT, `Must be at most ${MAX_TEXT} characters`).optional(),
  vimeoEmbedCode: z
    .string()
    .max(10_000, 'The embed code is too long')
    .optional()
    .refine((v) => !v?.trim() || extractVimeoPlayerUrl(v) !== null, VIMEO_EMBED_MESSAGE),
});

/**
 * Trims the URL and adds `embedded=true` when missing (with & if a query exists, else ?).
 * An empty string stays empty: the form is then not configured.
 */
export function normalizeFormUrl(raw: string): string {
  const url = raw.trim();
  if (!url) return '';
  if (/[?&]embedded=true(?:&|#|$)/.test(url)) return url;
  const [base, hash] = url.split('#', 2);
  const joined = `${base}${base!.includes('?') ? '&' : '?'}embedded=true`;
  return hash === undefined ? joined : `${joined}#${hash}`;
}

/** The link that opens the form in a new tab: the same URL without the embedded flag. */
export function withoutEmbeddedFlag(url: string): string {
  return url
    .replace(/([?&])embedded=true(&?)/, (_m, sep: string, tail: string) => (tail ? sep : ''))
    .replace(/[?&]$/, '');
}

export const GOOGLE_FORM_MESSAGE = 'Enter an https Google Forms link (docs.google.com/forms/... or forms.gle/...)';

export function isGoogleFormUrl(raw: string): boolean {
  try {
    const u = new URL(raw);
    if (u.protocol !== 'https:' || u.username || u.password || u.port) return false;
    return (u.hostname === 'docs.google.com' && u.pathname.startsWith('/forms/')) || u.hostname === 'forms.gle';
  } catch {
    return false;
  }
}

export const updateFirstOrderForm = z.object({
  tier,
  formUrl: z
    .string()
    .max(2_048, GOOGLE_FORM_MESSAGE)
    .transform(normalizeFormUrl)
    .refine((v) => v === '' || isGoogleFormUrl(v), GOOGLE_FORM_MESSAGE),
  isRequired: z.boolean({ error: 'Required must be true or false' }).default(true),
});
export type UpdateFirstOrderFormInput = z.input<typeof updateFirstOrderForm>;
