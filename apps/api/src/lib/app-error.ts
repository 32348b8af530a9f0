import { fieldErrorsOf } from '@dn/schema';
import type { TRPC_ERROR_CODE_KEY } from '@trpc/server';
import { ZodError } from 'zod';

export type AppErrorCode =
  | 'INVALID_INPUT'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'RATE_LIMITED'
  | 'TOKEN_EXPIRED'
  | 'UNAVAILABLE';

/** The one error type services throw; `toAppError` maps everything else onto it. */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly extra: { fieldErrors?: Record<string, string>; retryAfterSec?: number } = {},
  ) {
    super(message);
  }
}

export const HTTP_STATUS: Record<AppErrorCode, number> = {
  INVALID_INPUT: 400,
  UNAUTHORIZED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  TOKEN_EXPIRED: 410,
  RATE_LIMITED: 429,
  UNAVAILABLE: 503,
};

export const TRPC_CODE: Record<AppErrorCode, TRPC_ERROR_CODE_KEY> = {
  INVALID_INPUT: 'BAD_REQUEST',
  UNAUTHORIZED: 'UNAUTHORIZED',
  FORBIDDEN: 'FORBIDDEN',
  NOT_FOUND: 'NOT_FOUND',
  CONFLICT: 'CONFLICT',
  TOKEN_EXPIRED: 'BAD_REQUEST',
  RATE_LIMITED: 'TOO_MANY_REQUESTS',
  UNAVAILABLE: 'SERVICE_UNAVAILABLE',
};

export const UNAVAILABLE_MESSAGE = 'The service is temporarily unavailable. Please try again shortly.';
export const INTERNAL_MESSAGE = 'Something went wrong. Please try again.';

/**
 * The one error mapping, for both transports: an AppError, a zod error or a PostgreSQL error
 * becomes the AppError a client is told about; anything else is null (a 500 with a generic body).
 */
export function toAppError(err: unknown): AppError | null {
  if (err instanceof AppError) return err;
  if (err instanceof ZodError) {
    return new AppError('INVALID_INPUT', err.issues[0]?.message ?? 'Invalid input', {
      fieldErrors: fieldErrorsOf(err),
    });
  }
  if (isUniqueViolation(err)) return new AppError('CONFLICT', 'That record already exists');
  // Class 22 (data exception): a value the column cannot hold slipped past the schema.
  if (pgErrorCode(err)?.startsWith('22')) {
    return new AppError('INVALID_INPUT', 'The request contains a value that cannot be stored');
  }
  if (isDatabaseUnavailable(err)) return new AppError('UNAVAILABLE', UNAVAILABLE_MESSAGE);
  return null;
}

/** How long a client should wait before retrying (the Retry-After header), on /api and /trpc alike. */
export const UNAVAILABLE_RETRY_AFTER_SEC = 5;
export function retryAfterOf(err: AppError): number | undefined {
  return err.extra.retryAfterSec ?? (err.code === 'UNAVAILABLE' ? UNAVAILABLE_RETRY_AFTER_SEC : undefined);
}

/** The JSON body of an error answer (REST); tRPC carries the same fields in `data`. */
export function errorBody(err: AppError) {
  return {
    message: err.message,
    ...(err.extra.fieldErrors ? { fieldErrors: err.extra.fieldErrors } : {}),
    ...(err.extra.retryAfterSec ? { retryAfterSec: err.extra.retryAfterSec } : {}),
  };
}

/** PostgreSQL error codes worth a client-facing answer. */
export function pgErrorCode(err: unknown): string | undefined {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) ? code : undefined;
}

export const isUniqueViolation = (err: unknown) => pgErrorCode(err) === '23505';

/** Connection failures: the database is down or unreachable. */
export function isDatabaseUnavailable(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  const message = err instanceof Error ? err.message : '';
  return (
    code === 'ECONNREFUSED' ||
    code === 'ECONNRESET' ||
    code === 'ETIMEDOUT' ||
    code === '57P01' ||
    code === '57P03' ||
    /Connection terminated|connection timeout|timeout exceeded when trying to connect|Client has encountered a connection error/i.test(
      message,
    )
  );
}
