import type { TRPC_ERROR_CODE_KEY } from '@trpc/server';

export type AppErrorCode =
  | 'INVALID_INPUT'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN'
  | 'NOT_FOUND'
  | 'CONFLICT'
  | 'RATE_LIMITED'
  | 'TOKEN_EXPIRED'
  | 'UNAVAILABLE';

/** The one error type services throw; mapped once to HTTP and once to tRPC. */
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
