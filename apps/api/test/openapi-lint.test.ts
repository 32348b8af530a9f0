import { execFile } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { APP_VERSION } from '@dn/schema';
import { describe, expect, it } from 'vitest';
import { openApiDocument } from '../src/http/openapi';
import { restRoutes } from '../src/http/routes';

/**
 * The OpenAPI document passes Redocly's recommended rules with 0 errors (issue 40), every operation
 * has a unique operationId (a procedure's is its path), and `servers` is PUBLIC_URL's origin.
 */

const run = promisify(execFile);
const redocly = fileURLToPath(new URL('../node_modules/.bin/redocly', import.meta.url));
type Doc = ReturnType<typeof openApiDocument> & { paths: Record<string, Record<string, { operationId: string }>> };

describe('the OpenAPI document', () => {
  const doc = openApiDocument(restRoutes, APP_VERSION, 'https://dealers.example.org/ignored/path') as Doc;

  it('names every operation once, a procedure by its path, and is served from PUBLIC_URL', () => {
    const ids = Object.values(doc.paths).flatMap((ops) => Object.values(ops).map((op) => op.operationId));
    expect(ids.length).toBe(restRoutes.length);
    expect(new Set(ids).size).toBe(ids.length);
    expect(doc.paths['/api/admin/dealers/{id}/approve']?.post?.operationId).toBe('admin.approve');
    expect(doc.paths['/api/admin/dealers/export']?.get?.operationId).toBe('admin.exportDealers');
    expect(restRoutes.filter((r) => !r.operationId).map((r) => r.url)).toEqual([]);
    expect(doc.servers).toEqual([{ url: 'https://dealers.example.org' }]);
  });

  it("passes Redocly's recommended rules with no error", async () => {
    const dir = await mkdtemp(join(tmpdir(), 'dn-openapi-'));
    const file = join(dir, 'openapi.json');
    await writeFile(file, JSON.stringify(doc));
    const result = await run(redocly, ['lint', file, '--format=summary'], {
      env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
    }).catch((e: { stdout: string; stderr: string; code: number }) => e);
    const out = `${result.stdout}\n${result.stderr}`;
    expect(out, out).not.toMatch(/^error /m);
    expect(out).not.toContain('operation-operationId');
    expect('code' in result ? result.code : 0, out).toBe(0);
  }, 30_000);
});
