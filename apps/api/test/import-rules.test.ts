import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The import-direction lint (`pnpm lint:imports`, .dependency-cruiser.cjs) fails on a violation:
 * the repository's own config is run by the real depcruise over a tiny fixture tree laid out like
 * apps/api/src, once with an import against the direction and once with the same import the right
 * way round.
 */

const ROOT = join(import.meta.dirname, '../../..');
const DEPCRUISE = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function cruise(files: Record<string, string>): Promise<{ code: number; output: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'dn-depcruise-'));
  dirs.push(dir);
  // The config names tsconfig.base.json, relative to where depcruise runs.
  writeFileSync(join(dir, 'tsconfig.base.json'), JSON.stringify({ compilerOptions: { module: 'ESNext' } }));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [DEPCRUISE, 'apps', '--config', join(ROOT, '.dependency-cruiser.cjs')],
      { cwd: dir },
      (err, stdout, stderr) => resolve({ code: err ? Number(err.code ?? 1) : 0, output: `${stdout}${stderr}` }),
    );
  });
}

const OUTBOX = 'apps/api/src/services/mail/outbox.ts';
const CONTEXT = 'apps/api/src/context.ts';
const DECIDE = 'apps/api/src/services/review/decide.ts';
const APPROVE = 'apps/api/src/services/applications/approve.ts';
const ROUTES = 'apps/api/src/http/routes.ts';
const ROUTER = 'apps/api/src/routers/index.ts';
const AUTH = 'apps/api/src/plugins/auth.ts';

describe('pnpm lint:imports', () => {
  it('fails when context.ts imports from services/, naming the rule and the import', async () => {
    const r = await cruise({
      [CONTEXT]: "import type { MailService } from './services/mail/outbox';\nexport type Mail = MailService;\n",
      [OUTBOX]: 'export class MailService {}\n',
    });
    expect(r.code, r.output).not.toBe(0);
    expect(r.output).toContain(`error context-below-services: ${CONTEXT} → ${OUTBOX}`);
  }, 60_000);

  it('passes the same two files with the import the right way round (a service sees the context)', async () => {
    const r = await cruise({
      [CONTEXT]: 'export interface Mailer {\n  kick(): void;\n}\n',
      [OUTBOX]:
        "import type { Mailer } from '../../context';\nexport class MailService implements Mailer {\n  kick() {}\n}\n",
    });
    expect(r.output).toContain('no dependency violations found');
    expect(r.code, r.output).toBe(0);
  }, 60_000);

  // The layers (.dependency-cruiser.cjs LAYERS, SERVICE_LAYERS): each import below runs back up one.
  it('fails on an import that runs back up the transport layers, naming the layers and the import', async () => {
    const r = await cruise({
      [ROUTES]: 'export const routes = [];\n',
      [ROUTER]:
        "import { createRequestContext } from '../plugins/auth';\nexport const appRouter = { createRequestContext };\n",
      [AUTH]: "import { routes } from '../http/routes';\nexport const createRequestContext = () => routes;\n",
    });
    expect(r.code, r.output).not.toBe(0);
    expect(r.output).toContain('1 dependency violations');
    expect(r.output).toContain(`error plugins-below-http: ${AUTH} → ${ROUTES}`);
    // routers -> plugins runs down two layers: allowed, and not named.
    expect(r.output).not.toContain(`${ROUTER} → ${AUTH}`);
  }, 60_000);

  it('fails on a service domain that reaches up to one above it (applications below review)', async () => {
    const r = await cruise({
      [APPROVE]: "import { decide } from '../review/decide';\nexport const approveDealers = decide;\n",
      [DECIDE]: 'export const decide = () => 1;\n',
    });
    expect(r.code, r.output).not.toBe(0);
    expect(r.output).toContain(`error applications-below-review: ${APPROVE} → ${DECIDE}`);
  }, 60_000);

  it('passes the same domains with the import running down (review decides, applications approves)', async () => {
    const r = await cruise({
      [DECIDE]: "import { approveDealers } from '../applications/approve';\nexport const decide = approveDealers;\n",
      [APPROVE]: 'export const approveDealers = () => 1;\n',
      [ROUTES]: "import { appRouter } from '../routers/index';\nexport const routes = [appRouter];\n",
      [ROUTER]: "import { decide } from '../services/review/decide';\nexport const appRouter = { decide };\n",
    });
    expect(r.output).toContain('no dependency violations found');
    expect(r.code, r.output).toBe(0);
  }, 60_000);
});
