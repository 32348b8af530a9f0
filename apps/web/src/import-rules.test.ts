import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The web app's import rules (`pnpm lint:imports`, .dependency-cruiser.cjs, decision 1140): routes →
 * surfaces (site, portal, console) → shared; a surface never imports another; a feature never
 * imports a sibling feature's internals; only app.tsx imports the generated route tree; no circle,
 * type-only included. The repository's own config is run by the real depcruise over a tiny
 * fixture tree laid out like apps/web/src, once with a forbidden import and once the right way.
 */

const ROOT = join(import.meta.dirname, '../../..');
const DEPCRUISE = join(ROOT, 'node_modules/dependency-cruiser/bin/dependency-cruiser.mjs');
const dirs: string[] = [];
afterAll(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function cruise(files: Record<string, string>): Promise<{ code: number; output: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'dn-web-depcruise-'));
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

const SRC = 'apps/web/src';
const APP = `${SRC}/app.tsx`;
const TREE = `${SRC}/routeTree.gen.ts`;
const ROUTE = `${SRC}/routes/quote.ts`;
const CONSOLE_ROUTE = `${SRC}/routes/admin/_console.ts`;
const QUOTE = `${SRC}/site/jobs/QuoteForm.ts`;
const LAYOUT = `${SRC}/console/admin/AdminLayout.ts`;
const SECTIONS = `${SRC}/console/admin/sections.ts`;
const ROLE = `${SRC}/console/shared/role.ts`;
const CLAIMS = `${SRC}/console/claims/ClaimsSection.ts`;
const ORDERS = `${SRC}/console/commissions/DealerOrders.ts`;
const ORDERS_INDEX = `${SRC}/console/commissions/index.ts`;
const TRPC = `${SRC}/shared/lib/trpc.ts`;
const EARNINGS = `${SRC}/portal/commissions/EarningsCard.ts`;

describe('pnpm lint:imports on apps/web/src', () => {
  it('fails when a site page imports from the console, naming the rule and the import', async () => {
    const r = await cruise({
      [QUOTE]: "import { useAdminRole } from '../../console/shared/role';\nexport const quote = useAdminRole;\n",
      [ROLE]: 'export const useAdminRole = () => 1;\n',
    });
    expect(r.code, r.output).not.toBe(0);
    expect(r.output).toContain(`error web-site-beside-console: ${QUOTE} → ${ROLE}`);
  }, 60_000);

  it('fails when shared/ reaches up into a surface', async () => {
    const r = await cruise({
      [TRPC]:
        "import { EarningsCard } from '../../portal/commissions/EarningsCard';\nexport const trpc = EarningsCard;\n",
      [EARNINGS]: 'export const EarningsCard = 1;\n',
    });
    expect(r.code, r.output).not.toBe(0);
    expect(r.output).toContain(`error web-shared-below-portal: ${TRPC} → ${EARNINGS}`);
  }, 60_000);

  it("fails when a feature imports a sibling feature's internals, and passes its index (public face)", async () => {
    const files = {
      [ORDERS]: 'export const DealerOrders = 1;\n',
      [ORDERS_INDEX]: "export { DealerOrders } from './DealerOrders';\n",
    };
    const inside = await cruise({
      ...files,
      [CLAIMS]: "import { DealerOrders } from '../commissions/DealerOrders';\nexport const claims = DealerOrders;\n",
    });
    expect(inside.code, inside.output).not.toBe(0);
    expect(inside.output).toContain(`error web-feature-beside-feature: ${CLAIMS} → ${ORDERS}`);

    const face = await cruise({
      ...files,
      [CLAIMS]: "import { DealerOrders } from '../commissions';\nexport const claims = DealerOrders;\n",
    });
    expect(face.output).toContain('no dependency violations found');
    expect(face.code, face.output).toBe(0);
  }, 60_000);

  it('fails on a type-only import of the route tree that closes a circle (the console sections, issue 48)', async () => {
    const r = await cruise({
      [APP]: "import { routeTree } from './routeTree.gen';\nexport const app = routeTree;\n",
      [TREE]:
        "import { Route } from './routes/admin/_console';\nexport const routeTree = [Route];\nexport type To = '/admin';\n",
      [CONSOLE_ROUTE]:
        "import { AdminLayout } from '../../console/admin/AdminLayout';\nexport const Route = AdminLayout;\n",
      [LAYOUT]: "import { SECTIONS } from './sections';\nexport const AdminLayout = SECTIONS;\n",
      [SECTIONS]: "import type { To } from '../../routeTree.gen';\nexport const SECTIONS: To[] = ['/admin'];\n",
    });
    expect(r.code, r.output).not.toBe(0);
    expect(r.output).toContain(`error web-route-tree-only-in-app: ${SECTIONS} → ${TREE}`);
    // The circle, named from one of its members: AdminLayout → sections → routeTree.gen → _console → AdminLayout.
    expect(r.output).toContain(`error no-circular: ${LAYOUT} → `);
  }, 60_000);

  it('fails on a file left in the old features/ folder (a branch made before the surfaces)', async () => {
    const old = `${SRC}/features/jobs/QuoteForm.ts`;
    const r = await cruise({
      [old]: "import { trpc } from '../../shared/lib/trpc';\nexport const QuoteForm = trpc;\n",
      [TRPC]: 'export const trpc = 1;\n',
    });
    expect(r.code, r.output).not.toBe(0);
    expect(r.output).toContain(`error web-no-file-outside-the-layers: ${old} → ${TRPC}`);
  }, 60_000);

  it('passes the layers run the right way: app → route tree → routes → surfaces → shared', async () => {
    const r = await cruise({
      [APP]: "import { routeTree } from './routeTree.gen';\nexport const app = routeTree;\n",
      [TREE]:
        "import { Route } from './routes/admin/_console';\nimport { quote } from './routes/quote';\nexport const routeTree = [Route, quote];\n",
      [CONSOLE_ROUTE]:
        "import { AdminLayout } from '../../console/admin/AdminLayout';\nexport const Route = AdminLayout;\n",
      [ROUTE]: "import { QuoteForm } from '../site/jobs/QuoteForm';\nexport const quote = QuoteForm;\n",
      [LAYOUT]: "import { useAdminRole } from '../shared/role';\nexport const AdminLayout = useAdminRole;\n",
      [ROLE]: "import { trpc } from '../../shared/lib/trpc';\nexport const useAdminRole = trpc;\n",
      [QUOTE]: "import { trpc } from '../../shared/lib/trpc';\nexport const QuoteForm = trpc;\n",
      [TRPC]: 'export const trpc = 1;\n',
    });
    expect(r.output).toContain('no dependency violations found');
    expect(r.code, r.output).toBe(0);
  }, 60_000);
});
