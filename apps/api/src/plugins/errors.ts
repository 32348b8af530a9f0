import { fieldErrorsOf } from '@dn/schema';
import type { FastifyError, FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import { ZodError } from 'zod';
import { AppError, HTTP_STATUS, isDatabaseUnavailable, isUniqueViolation, pgErrorCode } from '../lib/app-error';

/** One mapping from errors to HTTP answers. 5xx bodies are generic; the details go to the log. */
export const errorsPlugin = fp(
  async (app: FastifyInstance) => {
    app.setErrorHandler((err: FastifyError | AppError | ZodError | Error, req, reply) => {
      if (err instanceof AppError) {
        if (err.extra.retryAfterSec) reply.header('retry-after', String(err.extra.retryAfterSec));
        return reply.status(HTTP_STATUS[err.code]).send({
          message: err.message,
          ...(err.extra.fieldErrors ? { fieldErrors: err.extra.fieldErrors } : {}),
          ...(err.extra.retryAfterSec ? { retryAfterSec: err.extra.retryAfterSec } : {}),
        });
      }
      if (err instanceof ZodError) {
        return reply
          .status(400)
          .send({ message: err.issues[0]?.message ?? 'Invalid input', fieldErrors: fieldErrorsOf(err) });
      }
      if (isUniqueViolation(err)) {
        return reply.status(409).send({ message: 'That record already exists' });
      }
      // Class 22 (data exception): a value the column cannot hold slipped past the schema.
      if (pgErrorCode(err)?.startsWith('22')) {
        req.log.warn({ err }, 'value refused by the database');
        return reply.status(400).send({ message: 'The request contains a value that cannot be stored' });
      }
      if (isDatabaseUnavailable(err)) {
        req.log.error({ err }, 'database unavailable');
        return reply
          .status(503)
          .header('retry-after', '5')
          .send({ message: 'The service is temporarily unavailable. Please try again shortly.' });
      }
      const status = (err as FastifyError).statusCode;
      if (status && status >= 400 && status < 500) {
        return reply.status(status).send({ message: clientMessage(err as FastifyError) });
      }
      req.log.error({ err }, 'unhandled error');
      return reply.status(500).send({ message: 'Something went wrong. Please try again.' });
    });
  },
  { name: 'errors' },
);

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
