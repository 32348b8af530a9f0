import { expect } from 'vitest';
import type { Harness } from './helpers';

/** The tag of a versioned answer (decisions 0790, 0791): made from its version, not its bytes. */
export const VERSION_TAG = /^W\/"v-[\w-]{22}"$/;

/** Polls as the web app does: a GET with its cookie and, from the second poll on, the tag it holds. */
export function versionedPolls(h: Harness) {
  const poll = (url: string, cookie: string | undefined, tag?: string) =>
    h.app.inject({
      url,
      headers: { ...(cookie ? { cookie } : {}), ...(tag ? { 'if-none-match': tag } : {}) },
    });

  /** Polls once: the current answer and its tag. */
  async function current(url: string, cookie: string) {
    const res = await poll(url, cookie);
    expect(res.statusCode).toBe(200);
    return { tag: res.headers.etag as string, body: res.body };
  }

  /** A change must answer the old tag with 200, the new data and a new tag. */
  async function expectChanged(url: string, cookie: string, before: { tag: string; body: string }) {
    const res = await poll(url, cookie, before.tag);
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toMatch(VERSION_TAG);
    expect(res.headers.etag).not.toBe(before.tag);
    expect(res.body).not.toBe(before.body);
    return { tag: res.headers.etag as string, body: res.body };
  }

  return { poll, current, expectChanged };
}
