import { fieldErrorsOf } from '@dn/schema';
import { initTRPC, TRPCError } from '@trpc/server';
import { ZodError } from 'zod';
import { AppError, isDatabaseUnavailable, isUniqueViolation, TRPC_CODE } from '../lib/app-error';
import type { Context, User } from './context';

const t = initTRPC.context<Context>().create({
  // Stacks never leave the server, whatever NODE_ENV says.
  isDev: false,
  errorFormatter({ shape, error }) {
    const cause = error.cause;
    const fieldErrors =
      cause instanceof ZodError
        ? fieldErrorsOf(cause)
        : cause instanceof AppError
          ? cause.extra.fieldErrors
          : undefined;
    let message = shape.message;
    if (cause instanceof ZodError) message = cause.issues[0]?.message ?? 'Invalid input';
    else if (error.code === 'INTERNAL_SERVER_ERROR') message = 'Something went wrong. Please try again.';
    return {
      message,
      code: shape.code,
      data: {
        code: shape.data.code,
        httpStatus: shape.data.httpStatus,
        path: shape.data.path,
        ...(fieldErrors ? { fieldErrors } : {}),
        ...(cause instanceof AppError && cause.extra.retryAfterSec ? { retryAfterSec: cause.extra.retryAfterSec } : {}),
      },
    };
  },
});

/** Services throw AppError; here it becomes the matching tRPC error, once for every procedure. */
const mapErrors = t.middleware(async ({ next }) => {
  const result = await next();
  if (!result.ok) {
    const cause = result.error.cause;
    if (cause instanceof AppError) {
      throw new TRPCError({ code: TRPC_CODE[cause.code], message: cause.message, cause });
    }
    if (isUniqueViolation(cause)) {
      throw new TRPCError({ code: 'CONFLICT', message: 'That record already exists', cause: cause as Error });
    }
    if (isDatabaseUnavailable(cause)) {
      throw new TRPCError({
        code: 'SERVICE_UNAVAILABLE',
        message: 'The service is temporarily unavailable. Please try again shortly.',
        cause: cause as Error,
      });
    }
  }
  return result;
});

export const router = t.router;
export const createCallerFactory = t.createCallerFactory;
export const publicProcedure = t.procedure.use(mapErrors);

export const authedProcedure = publicProcedure.use(({ ctx, next }) => {
  if (!ctx.user) throw new TRPCError({ code: 'UNAUTHORIZED', message: 'Please sign in' });
  return next({ ctx: { ...ctx, user: ctx.user as User } });
});

export const dealerProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.user.role !== 'dealer') throw new TRPCError({ code: 'FORBIDDEN', message: 'This is for dealer accounts' });
  return next({ ctx });
});

export const adminProcedure = authedProcedure.use(({ ctx, next }) => {
  if (ctx.user.role !== 'admin') {
    throw new TRPCError({
      code: 'FORBIDDEN',
      message: 'Access Denied: You need administrator privileges to access this page.',
    });
  }
  return next({ ctx });
});
