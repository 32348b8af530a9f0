/**
 * Plain JSON calls to the REST adapter (SPEC section 7), for the few reads and fire-and-forget
 * writes the landing page needs: they keep the tRPC client out of the first download.
 */

/** SPEC section 8: a failed call's message is "status: body text" (or the status text). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: { message?: string; fieldErrors?: Record<string, string> } | null,
    text: string,
  ) {
    super(`${status}: ${body?.message ?? text}`);
    this.name = 'ApiError';
  }
}

async function send<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  // A FormData body (a file upload) goes as multipart/form-data, its boundary set by the browser.
  const form = body instanceof FormData;
  const res = await fetch(path, {
    method,
    credentials: 'same-origin',
    headers: body === undefined || form ? { accept: 'application/json' } : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: form ? body : JSON.stringify(body) }),
  });
  if (!res.ok) {
    const text = (await res.text().catch(() => '')) || res.statusText;
    let parsed: ApiError['body'] = null;
    try {
      parsed = JSON.parse(text);
    } catch {
      // not JSON: the text itself is the message
    }
    throw new ApiError(res.status, parsed, text);
  }
  return (await res.json()) as T;
}

/** GET that reads a 401 as "no data" (SPEC section 7's default read). */
export const getOrNull = <T>(path: string): Promise<T | null> =>
  send<T>('GET', path).catch((err) => {
    if (err?.status === 401) return null;
    throw err;
  });

/**
 * Who is signed in, or null: the tRPC query `auth.me` read by a plain GET, which answers 200 with
 * null for a visitor. GET /api/auth/user keeps SPEC section 7's 401 for scripts, but a 401 is a
 * console error in every browser, on every anonymous page (issue 47).
 */
export const getSession = async <T>() =>
  (await send<{ result?: { data?: T | null } }>('GET', '/trpc/auth.me')).result?.data ?? null;

export const postJson = <T>(path: string, body: unknown = {}) => send<T>('POST', path, body);

/** POST of a multipart/form-data body (a file upload, issue 45). */
export const postForm = <T>(path: string, form: FormData) => send<T>('POST', path, form);
