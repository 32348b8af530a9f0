import { TRPCError } from '@trpc/server';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { errorBody, HTTP_STATUS, INTERNAL_MESSAGE, pgErrorCode, retryAfterOf, toAppError } from '../lib/app-error';
import { isQueueFull } from '../lib/password';

/**
 * The HTTP side of the one error mapping (lib/app-error.ts `toAppError`): REST answers, the
 * export and Fastify's own refusals. 5xx bodies are generic; the details go to the log.
 */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((thrown: FastifyError | Error, req, reply) => {
      // A procedure called by a REST route (http/call.ts) fails with a TRPCError around the real cause.
      const err = thrown instanceof TRPCError && thrown.cause ? thrown.cause : thrown;
      const known = toAppError(err);
      if (known) {
        const status = HTTP_STATUS[known.code];
        // A full hashing queue is logged by the queue itself, once a second (lib/password.ts).
        if (status >= 500 && !isQueueFull(known)) req.log.error({ err }, 'service unavailable');
        else if (pgErrorCode(err)) req.log.warn({ err }, 'refused by the database');
        const retryAfter = retryAfterOf(known);
        if (retryAfter) reply.header('retry-after', String(retryAfter));
        return reply.status(status).send(errorBody(known));
      }
      const status = (err as FastifyError).statusCode;
      if (status && status >= 400 && status < 500) {
        return reply.status(status).send({ message: clientMessage(err as FastifyError) });
      }
      req.log.error({ err }, 'unhandled error');
      return reply.status(500).send({ message: INTERNAL_MESSAGE });
    });
  },
  { name: 'errors' },
);

/**
 * The same Retry-After for /trpc (its adapter's `responseMeta`): a 429 or 503 among the answers
 * carries the header, the longest wait when a batch holds several.
 */
export function trpcRetryAfter({ errors }: { errors: readonly { cause?: unknown }[] }): {
  headers?: Record<string, string>;
} {
  const waits = errors.flatMap((e) => {
    const known = toAppError(e.cause);
    const wait = known ? retryAfterOf(known) : undefined;
    return wait ? [wait] : [];
  });
  return waits.length ? { headers: { 'retry-after': String(Math.max(...waits)) } } : {};
}

function clientMessage(err: FastifyError): string {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'The request body is not valid JSON';
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return 'The request body is too large';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return 'Send the request body as application/json';
    default:
      return err.message.slice(0, 200);
  }
}
