import { hash, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { AnyProcedure } from '@trpc/server';
import { assertAccess } from '../access';
import type { Context } from '../context';
import type { Meta } from './init';

let build: string | undefined;

/**
 * The code that renders the data, which a tag must name as well as the data's version. In
 * production the bundle's own bytes: every instance of one build agrees, and a deploy changes
 * every tag. Elsewhere one value per process, as a dev server's code changes under it.
 */
function buildId(ctx: Context): string {
  build ??=
    ctx.config.nodeEnv === 'production'
      ? hash('sha1', readFileSync(fileURLToPath(import.meta.url)), 'base64url')
      : randomUUID();
  return build;
}

/**
 * The ETag of a GET whose every procedure declares a version (decision 0790), for this user, URL
 * (path and input) and build; null when one of them does not, or when the user may not call it:
 * the procedure then runs and answers for itself.
 */
export function versionTag(ctx: Context, url: string, procedures: readonly AnyProcedure[]): string | null {
  const { user } = ctx;
  if (!user) return null;
  const parts = [buildId(ctx), ctx.config.publicUrl, url, user.role, user.id];
  for (const procedure of procedures) {
    const meta = procedure._def.meta as Meta | undefined;
    if (!meta?.version) return null;
    try {
      assertAccess(user, meta.access ?? 'public', meta.role);
    } catch {
      return null;
    }
    const version = meta.version({ ...ctx, user });
    if (version === null) return null;
    parts.push(version);
  }
  return `W/"v-${hash('sha1', JSON.stringify(parts), 'base64url').slice(0, 22)}"`;
}
