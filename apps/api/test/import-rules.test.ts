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
});
