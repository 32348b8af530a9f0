import { hash } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';

/**
 * Conditional GET for the polled JSON reads (REST /api/* and tRPC GET queries): every 200
 * JSON answer carries a weak ETag of its bytes, and a request whose If-None-Match names it
 * gets 304 with no body. Polls of unchanged data then cost no transfer and no client-side
 * parse or re-render. Weak, because a proxy that compresses must not break the comparison.
 * Streams (the CSV export) and answers that set their own ETag are left alone.
 * See docs/decisions/0500-conditional-get.md.
 */

/** The ETag of a payload: 128 bits of SHA-1 are plenty to tell versions of one resource apart. */
export function etagOf(body: string | Buffer): string {
  return `W/"${hash('sha1', body, 'base64url').slice(0, 22)}"`;
}

/** RFC 9110 weak comparison of If-None-Match against one tag ('*' matches anything). */
export function ifNoneMatchHits(header: string | undefined, tag: string): boolean {
  if (!header) return false;
  const opaque = tag.replace(/^W\//, '');
  for (const part of header.split(',')) {
    const t = part.trim();
    if (t === '*' || t.replace(/^W\//, '') === opaque) return true;
  }
  return false;
}

/** Marks a 200 with a tag its handler made (trpc/versioned.ts); the hook below then leaves it alone. */
export function tagAnswer(reply: FastifyReply, tag: string): void {
  reply.header('etag', tag);
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'private, no-cache');
}

/** Answers 304 for a tag its handler made, when the client holds it. True when it did. */
export function answeredNotModified(req: FastifyRequest, reply: FastifyReply, tag: string): boolean {
  if (!ifNoneMatchHits(req.headers['if-none-match'], tag)) return false;
  tagAnswer(reply, tag);
  void reply.code(304).send();
  return true;
}

function applies(req: FastifyRequest): boolean {
  if (req.method !== 'GET' && req.method !== 'HEAD') return false;
  const url = req.url;
  return url.startsWith('/api/') || url.startsWith('/trpc/');
}

const isJson = (type: unknown) => typeof type === 'string' && type.startsWith('application/json');

function conditional(req: FastifyRequest, reply: FastifyReply, body: string | Buffer): string | Buffer {
  const tag = etagOf(body);
  reply.header('etag', tag);
  // Revalidate every time: the browser keeps the body and sends If-None-Match.
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'private, no-cache');
  if (!ifNoneMatchHits(req.headers['if-none-match'], tag)) return body;
  reply.code(304);
  reply.removeHeader('content-length');
  reply.removeHeader('content-type');
  return '';
}

export const etagPlugin = fp(
  async (app: FastifyInstance) => {
    app.addHook('onSend', async (req, reply, payload: unknown) => {
      if (!applies(req) || reply.statusCode !== 200 || reply.hasHeader('etag')) return payload;
      if (typeof payload === 'string' || Buffer.isBuffer(payload)) {
        return isJson(reply.getHeader('content-type')) ? conditional(req, reply, payload) : payload;
      }
      // tRPC answers with a fetch Response; a plain JSON one is read whole, a streamed one is left alone.
      if (payload instanceof Response) {
        if (payload.status !== 200 || !isJson(payload.headers.get('content-type')) || req.headers['trpc-accept']) {
          return payload;
        }
        const body = await payload.text();
        for (const [name, value] of payload.headers) {
          if (name !== 'content-length' && name !== 'transfer-encoding') reply.header(name, value);
        }
        return conditional(req, reply, body);
      }
      return payload;
    });
  },
  { name: 'etag' },
);
