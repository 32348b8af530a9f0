import { execFile } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestDatabase, type TestDatabase } from '@dn/db/testing';
import type { AnyProcedure } from '@trpc/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShiftedClock } from '../src/lib/clock';
import { appRouter } from '../src/routers/index';
import type { Meta } from '../src/trpc/init';
import { appLoggingTo, createDealer, signInAdmin, type TestApp } from './helpers';

/** Personal API tokens (issue 40, decision 0980): scope, revocation, expiry, and never shown twice. */

const DAY = 24 * 60 * 60_000;
const run = promisify(execFile);
const clock = new ShiftedClock();
const lines: string[] = [];
let database: TestDatabase;
let app: TestApp;
let owner: string;

beforeAll(async () => {
  database = await createTestDatabase();
  app = await appLoggingTo(database, lines, {}, clock);
  owner = await signInAdmin(app, 'token-owner');
});
afterAll(async () => {
  await app?.close();
  await app?.deps.mail.stop();
  await database?.close();
});

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const approve = (dealerId: string, token: string) =>
  app.inject({ method: 'POST', url: `/api/admin/dealers/${dealerId}/approve`, headers: bearer(token), payload: {} });

async function createToken(body: Record<string, unknown>, cookie = owner) {
  const res = await app.inject({ method: 'POST', url: '/api/admin/api-tokens', headers: { cookie }, payload: body });
  return res;
}

async function newToken(scope: 'read' | 'read-write', expiresInDays = 30) {
  const res = await createToken({ name: `script ${scope}`, scope, expiresInDays });
  expect(res.statusCode).toBe(200);
  const body = res.json() as { id: string; token: string };
  expect(body.token).toMatch(/^dnp_[A-Za-z0-9_-]{43}$/);
  return body;
}

describe('personal API tokens', () => {
  it('a read token lists dealers on /api and /trpc and is refused 403 on an approval', async () => {
    const pending = await createDealer(database.db, { status: 'pending' });
    const { token } = await newToken('read');

    const list = await app.inject({ url: '/api/admin/dealers?status=pending', headers: bearer(token) });
    expect(list.statusCode).toBe(200);
    expect(JSON.stringify(list.json())).toContain(pending.id);

    const trpc = await app.inject({ url: '/trpc/auth.user', headers: bearer(token) });
    expect(trpc.statusCode).toBe(200);
    expect(trpc.json().result.data.username).toBe('token-owner');

    const refused = await approve(pending.id, token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toMatch(/read-only/);
    const trpcApprove = await app.inject({
      method: 'POST',
      url: '/trpc/admin.approve',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: { id: pending.id },
    });
    expect(trpcApprove.statusCode).toBe(403);
    const row = await database.db
      .selectFrom('dealers')
      .select('status')
      .where('id', '=', pending.id)
      .executeTakeFirst();
    expect(row?.status).toBe('pending');
  });

  it('a read-write token approves, with the role of the owner who made it, and is audited', async () => {
    const pending = await createDealer(database.db, { status: 'pending' });
    const { token } = await newToken('read-write');
    const approved = await approve(pending.id, token);
    expect(approved.statusCode).toBe(200);
    // Its owner demoted to viewer: the token now acts as a viewer.
    await database.db.updateTable('admins').set({ role: 'viewer' }).where('username', '=', 'token-owner').execute();
    try {
      const other = await createDealer(database.db, { status: 'pending' });
      const refused = await approve(other.id, token);
      expect(refused.statusCode).toBe(403);
    } finally {
      await database.db.updateTable('admins').set({ role: 'owner' }).where('username', '=', 'token-owner').execute();
    }
    const audit = await database.db
      .selectFrom('auditLogs')
      .select('eventType')
      .where('eventType', 'like', 'api_token.%')
      .execute();
    expect(audit.map((a) => a.eventType)).toContain('api_token.created');
  });

  it('is never accepted for sign-in, passwords, sessions or token management', async () => {
    const { token } = await newToken('read-write');
    const refused = [
      await app.inject({ url: '/api/admin/api-tokens', headers: bearer(token) }),
      await app.inject({
        method: 'POST',
        url: '/api/admin/api-tokens',
        headers: bearer(token),
        payload: { name: 'x', scope: 'read', expiresInDays: 1 },
      }),
      await app.inject({ url: '/api/admin/me/sessions', headers: bearer(token) }),
      await app.inject({
        method: 'POST',
        url: '/api/admin/me/password',
        headers: bearer(token),
        payload: {
          currentPassword: 'admin-password-1',
          newPassword: 'a-new-password-9',
          confirmPassword: 'a-new-password-9',
        },
      }),
      await app.inject({
        method: 'POST',
        url: '/api/admin/login',
        headers: bearer(token),
        payload: { username: 'token-owner', password: 'admin-password-1' },
      }),
    ];
    expect(refused.map((r) => r.statusCode)).toEqual([403, 403, 403, 403, 403]);
    expect(refused[4]?.headers['set-cookie']).toBeUndefined();
  });

  it('a revoked or expired token is 401; an unknown one too', async () => {
    const revoked = await newToken('read');
    const del = await app.inject({
      method: 'DELETE',
      url: `/api/admin/api-tokens/${revoked.id}`,
      headers: { cookie: owner },
    });
    expect(del.statusCode).toBe(200);
    const again = await app.inject({
      method: 'DELETE',
      url: `/api/admin/api-tokens/${revoked.id}`,
      headers: { cookie: owner },
    });
    expect(again.statusCode).toBe(404);
    expect((await app.inject({ url: '/api/admin/dealers', headers: bearer(revoked.token) })).statusCode).toBe(401);

    const shortLived = await newToken('read', 1);
    expect((await app.inject({ url: '/api/admin/dealers', headers: bearer(shortLived.token) })).statusCode).toBe(200);
    clock.advance(DAY + 1_000);
    expect((await app.inject({ url: '/api/admin/dealers', headers: bearer(shortLived.token) })).statusCode).toBe(401);
    expect((await app.inject({ url: '/trpc/admin.dealers', headers: bearer(shortLived.token) })).statusCode).toBe(401);
    expect((await app.inject({ url: '/api/admin/dealers', headers: bearer(`dnp_${'x'.repeat(43)}`) })).statusCode).toBe(
      401,
    );
  });

  it('only owners manage tokens; bad input names the field and stores nothing', async () => {
    const before = await database.db
      .selectFrom('apiTokens')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    const bad = await createToken({ name: '  ', scope: 'write', expiresInDays: 0 });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fieldErrors).sort()).toEqual(['expiresInDays', 'name', 'scope']);
    await database.db
      .updateTable('admins')
      .set({ role: 'reviewer' })
      .where('username', '=', 'token-reviewer')
      .execute();
    const reviewer = await signInAdmin(app, 'token-reviewer');
    await database.db
      .updateTable('admins')
      .set({ role: 'reviewer' })
      .where('username', '=', 'token-reviewer')
      .execute();
    expect((await createToken({ name: 'r', scope: 'read', expiresInDays: 7 }, reviewer)).statusCode).toBe(403);
    expect((await app.inject({ url: '/api/admin/api-tokens' })).statusCode).toBe(401);
    const after = await database.db
      .selectFrom('apiTokens')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
  });

  it('the token never appears in a log line or in a response after the one that created it', async () => {
    const { token } = await newToken('read');
    await app.inject({ url: '/api/admin/dealers', headers: bearer(token) });
    await app.inject({ url: `/api/admin/dealers?q=${token}`, headers: bearer(token) });
    const list = await app.inject({ url: '/api/admin/api-tokens', headers: { cookie: owner } });
    expect(list.statusCode).toBe(200);
    const secret = token.slice(4);
    expect(list.body).not.toContain(secret);
    const rows = list.json() as { name: string; lastUsedAt: string | null; tokenHash?: string }[];
    expect(rows.some((r) => r.lastUsedAt !== null)).toBe(true);
    expect(rows.every((r) => r.tokenHash === undefined)).toBe(true);
    const audit = await database.db.selectFrom('auditLogs').select('details').execute();
    expect(JSON.stringify(audit)).not.toContain(secret);
    expect(lines.length).toBeGreaterThan(5);
    expect(lines.join('\n')).not.toContain(secret);
  });
});

describe('the README script', () => {
  it('lists the pending applications with a read token', async () => {
    const readme = await readFile(new URL('../../../README.md', import.meta.url), 'utf8');
    const script = /```js\n(\/\/ DN_URL=[^\n]*pending\.mjs\n[\s\S]*?)```/.exec(readme)?.[1];
    expect(script?.split('\n').filter(Boolean).length).toBeLessThanOrEqual(10);
    const pending = await createDealer(database.db, { status: 'pending', companyName: 'Readme Pending Co' });
    await createDealer(database.db, { status: 'approved', companyName: 'Readme Approved Co' });
    const { token } = await newToken('read');
    const dir = await mkdtemp(join(tmpdir(), 'dn-readme-'));
    await writeFile(join(dir, 'pending.mjs'), script ?? '');
    await app.listen({ port: 0, host: '127.0.0.1' });
    const address = app.server.address() as AddressInfo;
    const { stdout } = await run(process.execPath, [join(dir, 'pending.mjs')], {
      env: { ...process.env, DN_URL: `http://127.0.0.1:${address.port}`, DN_TOKEN: token },
    });
    expect(stdout).toContain('Readme Pending Co');
    expect(stdout).toContain(pending.email);
    expect(stdout).not.toContain('Readme Approved Co');
    expect(stdout).toMatch(/\d+ pending/);
  });
});

describe('which procedures a token may never call', () => {
  it('every sign-in, password, session and token procedure is sessionOnly', () => {
    const procedures = appRouter._def.procedures as unknown as Record<string, AnyProcedure>;
    // Issue 45: managing the team (invite, re-role, remove, revoke an invitation) needs a session too.
    const sensitive = Object.keys(procedures).filter((p) =>
      /login|logout|password|acceptInvite|sessions?$|devices$|^apiTokens\.|^team\.(invite|setRole|remove|revokeInvitation)$/i.test(
        p,
      ),
    );
    expect(sensitive.length).toBeGreaterThan(10);
    const missing = sensitive.filter((p) => !(procedures[p]?._def.meta as Meta | undefined)?.sessionOnly);
    expect(missing).toEqual([]);
  });
});
