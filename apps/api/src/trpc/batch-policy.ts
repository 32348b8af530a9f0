import { TRPCError } from '@trpc/server';
import type { Meta } from './init';

/** Batching limits on /trpc (decision 0630): at most TRPC_MAX_BATCH calls (@dn/schema). */
export { TRPC_MAX_BATCH as MAX_BATCH_SIZE } from '@dn/schema';

interface BatchCall {
  path: string;
  /** The procedure the path names (tRPC fills it in; null for an unknown path). */
  procedure?: { _def: { meta?: unknown } } | null;
}

/** Whether a called procedure is declared `.meta(alone)`: it hashes a password or sends an email. */
export const mustRunAlone = (call: BatchCall) => (call.procedure?._def.meta as Meta | undefined)?.alone === true;

/**
 * Throws 400 when a batch of several calls includes a procedure declared `.meta(alone)`. The
 * whole request is refused before any entry runs (simpler to reason about than a half-run batch;
 * the web client sends each of these alone).
 */
export function refuseUnbatchable(info: { isBatchCall: boolean; calls: readonly BatchCall[] } | undefined) {
  if (!info?.isBatchCall || info.calls.length < 2) return;
  const single = info.calls.find(mustRunAlone);
  if (single) {
    throw new TRPCError({ code: 'BAD_REQUEST', message: `${single.path} cannot be batched: send it alone.` });
  }
}
