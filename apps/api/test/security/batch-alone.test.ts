import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TRPC_MAX_BATCH } from '@dn/schema';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '../../src/routers/index';
import type { Meta } from '../../src/trpc/init';
import { createHarness, type Harness } from '../helpers';

/**
 * Issue 12, decision 0630: a procedure that hashes a password or sends an email runs only alone,
 * never in a tRPC batch of two or more. Which procedures those are is declared on each one
 * (`.meta(alone)`), and this file proves no procedure reaches argon2 or the outbox without it:
 * it reads the source (routers and services) into a call graph by function name, marks every
 * function that calls `hashPassword`, `verifyPassword` or `enqueueMail` (directly or through
 * other functions), and asserts every procedure whose resolver reaches one is flagged. A
 * procedure added later without the flag fails here.
 */

const SRC = join(import.meta.dirname, '../../src');
const QUERIES = join(import.meta.dirname, '../../../../packages/db/src/queries');
/** argon2, and every statement that writes to the outbox (found in packages/db by what it writes). */
const HASHING = ['hashPassword', 'verifyPassword'];
const WRITES_MAIL = /insertInto\(\s*'emailOutbox'\s*\)|insert\s+into\s+email_outbox/i;

const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts') && !e.name.endsWith('.test.ts'))
    .map((e) => join(e.parentPath, e.name));

const parse = (file: string) => ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);

/** The names a piece of code calls: `f(...)` and `x.f(...)` both count as `f`. */
function calledNames(node: ts.Node): Set<string> {
  const out = new Set<string>();
  const visit = (n: ts.Node) => {
    if (ts.isCallExpression(n)) {
      const e = n.expression;
      if (ts.isIdentifier(e)) out.add(e.text);
      else if (ts.isPropertyAccessExpression(e)) out.add(e.name.text);
    }
    // A function passed by name (`.map(queueX)`, `.then(sendY)`) is a call too.
    if (ts.isCallExpression(n)) for (const a of n.arguments) if (ts.isIdentifier(a)) out.add(a.text);
    ts.forEachChild(n, visit);
  };
  visit(node);
  return out;
}

/** Every named function in the services and lib (declarations and `const f = () => ...`), merged by name. */
function callGraph(): { graph: Map<string, Set<string>>; sinks: Set<string> } {
  const graph = new Map<string, Set<string>>();
  const sinks = new Set<string>(HASHING);
  const add = (name: string, body: ts.Node) => {
    const calls = graph.get(name) ?? new Set<string>();
    for (const c of calledNames(body)) calls.add(c);
    graph.set(name, calls);
    if (WRITES_MAIL.test(body.getText())) sinks.add(name);
  };
  const files = [...filesUnder(join(SRC, 'services')), ...filesUnder(join(SRC, 'lib')), ...filesUnder(QUERIES)];
  for (const file of files) {
    const visit = (n: ts.Node) => {
      if (ts.isFunctionDeclaration(n) && n.name && n.body) add(n.name.text, n.body);
      else if (ts.isMethodDeclaration(n) && ts.isIdentifier(n.name) && n.body) add(n.name.text, n.body);
      else if (
        ts.isVariableDeclaration(n) &&
        ts.isIdentifier(n.name) &&
        n.initializer &&
        (ts.isArrowFunction(n.initializer) || ts.isFunctionExpression(n.initializer))
      )
        add(n.name.text, n.initializer);
      ts.forEachChild(n, visit);
    };
    visit(parse(file));
  }
  return { graph, sinks };
}

/** The functions that reach a sink, by a fixed point over the call graph. */
function reachingSinks({ graph, sinks }: ReturnType<typeof callGraph>): Set<string> {
  const hot = new Set<string>(sinks);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [name, calls] of graph) {
      if (hot.has(name)) continue;
      if ([...calls].some((c) => hot.has(c))) {
        hot.add(name);
        grew = true;
      }
    }
  }
  return hot;
}

/** Each procedure's path (as the live router names it) and the names its declaration calls. */
function procedureCalls(): Map<string, Set<string>> {
  // routers/index.ts: `key: someRouter` or `key: mergeRouters(someRouter, otherRouter)` (decision 0850);
  // each router file: `export const someRouter = router({ name: ... })`.
  const keyOf = new Map<string, string>();
  const index = parse(join(SRC, 'routers/index.ts'));
  const visitIndex = (n: ts.Node) => {
    if (ts.isPropertyAssignment(n) && ts.isIdentifier(n.name)) {
      const init = n.initializer;
      const parts =
        ts.isCallExpression(init) && ts.isIdentifier(init.expression) && init.expression.text === 'mergeRouters'
          ? init.arguments
          : [init];
      for (const part of parts) if (ts.isIdentifier(part)) keyOf.set(part.text, n.name.text);
    }
    ts.forEachChild(n, visitIndex);
  };
  visitIndex(index);

  const out = new Map<string, Set<string>>();
  for (const file of filesUnder(join(SRC, 'routers'))) {
    const visit = (n: ts.Node) => {
      if (
        ts.isVariableDeclaration(n) &&
        ts.isIdentifier(n.name) &&
        keyOf.has(n.name.text) &&
        n.initializer &&
        ts.isCallExpression(n.initializer)
      ) {
        const key = keyOf.get(n.name.text)!;
        const obj = n.initializer.arguments[0];
        if (obj && ts.isObjectLiteralExpression(obj)) {
          for (const p of obj.properties) {
            if (ts.isPropertyAssignment(p) && ts.isIdentifier(p.name)) {
              out.set(`${key}.${p.name.text}`, calledNames(p.initializer));
            }
          }
        }
      }
      ts.forEachChild(n, visit);
    };
    visit(parse(file));
  }
  return out;
}

const live = appRouter._def.procedures as unknown as Record<string, { _def: { type: string; meta?: Meta } }>;
const flagged = () =>
  Object.entries(live)
    .filter(([, p]) => p._def.meta?.alone === true)
    .map(([path]) => path)
    .sort();

describe('procedures that hash or send email are declared alone', () => {
  const hot = reachingSinks(callGraph());
  const declared = procedureCalls();
  const reaching = [...declared]
    .filter(([, calls]) => [...calls].some((c) => hot.has(c)))
    .map(([path]) => path)
    .sort();

  it('the source analysis sees every live procedure (so none escapes it)', () => {
    expect([...declared.keys()].sort()).toEqual(Object.keys(live).sort());
  });

  it('finds the procedures known to hash or email (the analysis is not blind)', () => {
    expect(hot).toContain('enqueueMail');
    expect(hot).toContain('insertActionMails');
    for (const path of [
      'auth.dealerLogin',
      'auth.adminLogin',
      'site.scheduleCall',
      'site.signup',
      'account.resetPassword',
      'team.invite',
      'admin.approve',
      'admin.reject',
      'review.bulk',
    ]) {
      expect(reaching).toContain(path);
    }
    expect(reaching).not.toContain('auth.me');
    expect(reaching).not.toContain('site.landingVideos');
  });

  it('every procedure that reaches hashPassword, verifyPassword or enqueueMail has meta.alone', () => {
    const missing = reaching.filter((path) => live[path]?._def.meta?.alone !== true);
    expect(missing).toEqual([]);
  });

  it('meta.alone is set only where it is needed (no blanket flag hides a regression)', () => {
    expect(flagged()).toEqual(reaching);
  });
});

describe('the batch refusal reads meta.alone from the router', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness();
  });
  afterAll(async () => {
    await h?.close();
  });

  it('every flagged procedure is refused whole in a batch of two, and is not refused alone', async () => {
    const paths = flagged();
    expect(paths.length).toBeGreaterThan(10);
    for (const path of paths) {
      // Every one changes something, so it is paired with another mutation (tRPC refuses mixed types first).
      expect(live[path]!._def.type, path).toBe('mutation');
      const res = await h.app.inject({
        method: 'POST',
        url: `/trpc/${path},auth.logout?batch=1`,
        headers: { 'content-type': 'application/json' },
        payload: { 0: {}, 1: {} },
      });
      expect(res.statusCode, path).toBe(400);
      expect(res.body, path).toContain(`${path} cannot be batched: send it alone.`);
      // Alone in `?batch=1` it is not refused by the batch rule (it fails later, on its input or access).
      const single = await h.app.inject({
        method: 'POST',
        url: `/trpc/${path}?batch=1`,
        headers: { 'content-type': 'application/json' },
        payload: { 0: {} },
      });
      expect(single.body, path).not.toContain('cannot be batched');
    }
  });

  it('a batch of procedures not flagged still runs', async () => {
    const res = await h.app.inject({ method: 'GET', url: '/trpc/auth.me,site.landingVideos?batch=1' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toHaveLength(2);
    const writes = await h.app.inject({
      method: 'POST',
      url: '/trpc/auth.logout,auth.logout?batch=1',
      headers: { 'content-type': 'application/json' },
      payload: { 0: {}, 1: {} },
    });
    expect(writes.statusCode).toBe(200);
  });

  it(`caps a batch at TRPC_MAX_BATCH (${TRPC_MAX_BATCH}) calls: one over is refused whole with a 400, one at the cap runs`, async () => {
    const batch = (n: number) =>
      h.app.inject({ method: 'GET', url: `/trpc/${Array(n).fill('site.landingVideos').join(',')}?batch=1` });
    const at = await batch(TRPC_MAX_BATCH);
    expect(at.statusCode, at.body).toBe(200);
    expect(at.json()).toHaveLength(TRPC_MAX_BATCH);
    for (const entry of at.json() as { result?: unknown }[]) expect(entry.result).toBeDefined();

    const over = await batch(TRPC_MAX_BATCH + 1);
    expect(over.statusCode, over.body).toBe(400);
    expect(over.body).toContain('Batch call exceeds maximum size');
    // Refused whole: no entry ran (the answer carries no result).
    expect(over.body).not.toContain('"result"');
    // Far over the cap it is the same answer, at once.
    const far = await batch(200);
    expect(far.statusCode).toBe(400);
    expect(far.body).toContain('Batch call exceeds maximum size');
  });
});
