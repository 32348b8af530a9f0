import type { Readable } from 'node:stream';
import type { z } from 'zod';
import type { AdminRole } from '../access';
import type { Context, User } from '../context';
import type { HttpRoute } from './route';

/** A CSV file: its name in the download and its body (a stream of batches, or the whole text). */
export interface CsvFile {
  fileName: string;
  body: Readable | string;
}

/**
 * A CSV download route (headers: plugins/security.ts): a file cannot be a procedure's JSON answer.
 * Its query is parsed with `input` (documented in OpenAPI) and its path parameters with `params`,
 * both before anything is written or audited (a bad parameter is a 400 with its message); then
 * `file` makes the file and its body goes out as it is, a stream piped to the client.
 */
export function csvDownload<Q extends z.ZodType = z.ZodUndefined, P extends z.ZodType = z.ZodUndefined>(spec: {
  url: string;
  role: AdminRole;
  summary: string;
  /** Its OpenAPI operationId (http/route.ts). */
  operationId: string;
  /** Refused to a personal API token (http/route.ts): a file with full identifiers. */
  sessionOnly?: true;
  input?: Q;
  params?: P;
  file(ctx: Context & { user: User }, query: z.output<Q>, params: z.output<P>): Promise<CsvFile>;
}): HttpRoute {
  return {
    method: 'GET',
    url: spec.url,
    access: 'admin',
    role: spec.role,
    ...(spec.sessionOnly ? { sessionOnly: true as const } : {}),
    summary: spec.summary,
    operationId: spec.operationId,
    ...(spec.input ? { input: spec.input } : {}),
    responds: 'text/csv attachment',
    async handle({ req, reply, context }) {
      const query = spec.input?.parse(req.query ?? {}) as z.output<Q>;
      const params = spec.params?.parse(req.params) as z.output<P>;
      const { fileName, body } = await spec.file(await context(), query, params);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', `attachment; filename="${fileName}"`)
        .send(body);
    },
  };
}
