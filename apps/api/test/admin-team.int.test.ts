import { sql } from '@dn/db';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureAdmin, upsertAdmin } from '../src/services/accounts/admins';
import { cookieOf, mailHarnessForFile, signInAdmin } from './helpers';

/** The admin team (issue 14): invitations, roles, last-owner protection, own password and sessions. */

// A harness on PGlite migrates in-process: on a loaded machine that alone can take a minute.
const h = mailHarnessForFile({}, 180_000);
let ownerCookie: string;
beforeAll(async () => {
  ownerCookie = await signInAdmin(h.app, 'team-owner');
});

const post = (url: string, payload: unknown, cookie?: string) =>
  h.app.inject({ method: 'POST', url, payload: payload as object, headers: cookie ? { cookie } : {} });
const get = (url: string, cookie: string) => h.app.inject({ url, headers: { cookie } });
const del = (url: string, cookie: string) => h.app.inject({ method: 'DELETE', url, headers: { cookie } });
const tokenOf = (text: string) => /accept-invite\?token=([A-Za-z0-9_-]{43})/.exec(text)?.[1];
const adminId = async (username: string) =>
  (await h.db.selectFrom('admins').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;
const ownerCount = async () =>
  Number(
    (await sql<{ n: string }>`select count(*)::text as n from admins where role = 'owner'`.execute(h.db)).rows[0]!.n,
  );

async function invite(email: string, role: 'owner' | 'reviewer' | 'viewer') {
  const res = await post('/api/admin/team/invitations', { email, role }, ownerCookie);
  expect(res.statusCode, res.body).toBe(200);
  const mail = await h.smtp.waitFor(email, /invited/);
  const token = tokenOf(mail.text);
  expect(token).toBeDefined();
  return token!;
}

describe('invitations', () => {
  it('an owner invites by email; the link makes an admin with that role, signed in, and works once', async () => {
    const token = await invite('new.viewer@example.com', 'viewer');
    // Hashed at rest: the token itself is nowhere in the table.
    const raw = await sql<{
      n: string;
    }>`select count(*)::text as n from magic_link_tokens where token = ${token}`.execute(h.db);
    expect(raw.rows[0]!.n).toBe('0');
    const res = await post('/api/auth/accept-invite', { token, fullName: 'Vera Viewer', password: 'viewer-pass-1' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().user).toMatchObject({ role: 'admin', adminRole: 'viewer', username: 'new.viewer@example.com' });
    const cookie = cookieOf(res);
    expect((await get('/api/admin/dealers', cookie)).statusCode).toBe(200);
    expect(
      (await post('/api/admin/team/invitations', { email: 'x@example.com', role: 'owner' }, cookie)).statusCode,
    ).toBe(403);
    // Single use.
    const again = await post('/api/auth/accept-invite', { token, fullName: 'Vera Again', password: 'viewer-pass-2' });
    expect(again.statusCode).toBe(410);
    // The new admin signs in with the email as username.
    const login = await post('/api/admin/login', { username: 'new.viewer@example.com', password: 'viewer-pass-1' });
    expect(login.statusCode).toBe(200);
  });

  it('an expired link is refused and makes no admin', async () => {
    const token = await invite('late.reviewer@example.com', 'reviewer');
    await sql`update magic_link_tokens set expires_at = now() - interval '1 second' where purpose = 'admin_invite' and used = false`.execute(
      h.db,
    );
    const res = await post('/api/auth/accept-invite', { token, fullName: 'Late', password: 'reviewer-pass-1' });
    expect(res.statusCode).toBe(410);
    const n = await h.db
      .selectFrom('admins')
      .select('id')
      .where('username', '=', 'late.reviewer@example.com')
      .execute();
    expect(n).toHaveLength(0);
  });

  it('the link lives 72 hours; a new invitation supersedes the older link', async () => {
    const first = await invite('twice@example.com', 'reviewer');
    h.smtp.received.length = 0;
    const second = await invite('twice@example.com', 'viewer');
    const row = await sql<{ hours: number }>`
      select round(extract(epoch from (expires_at - created_at)) / 3600)::int as hours
      from magic_link_tokens where purpose = 'admin_invite' order by created_at desc limit 1`.execute(h.db);
    expect(row.rows[0]!.hours).toBe(72);
    expect(
      (await post('/api/auth/accept-invite', { token: first, fullName: 'T', password: 'twice-pass-1' })).statusCode,
    ).toBe(410);
    const ok = await post('/api/auth/accept-invite', { token: second, fullName: 'T', password: 'twice-pass-1' });
    expect(ok.json().user.adminRole).toBe('viewer');
  });

  it('a malformed or unknown token is a 400, never a 500; a dealer link cannot accept an invitation', async () => {
    for (const token of ['', 'x', 'a'.repeat(43), '../../etc']) {
      const res = await post('/api/auth/accept-invite', { token, fullName: 'N', password: 'some-pass-1' });
      expect(res.statusCode, token).toBe(400);
    }
  });
});

describe('the first admin', () => {
  const roleOf = async (db: typeof h.db, username: string) =>
    (await db.selectFrom('admins').select('role').where('username', '=', username).executeTakeFirstOrThrow()).role;

  it('made by ADMIN_USERNAME/ADMIN_PASSWORD, generated at start, or made by pnpm admin:create, is an owner', async () => {
    // On an empty admins table (inside a transaction rolled back at the end), as on a new install.
    const roles: Record<string, string> = {};
    const rollback = new Error('rollback');
    await expect(
      h.db.transaction().execute(async (trx) => {
        await trx.deleteFrom('admins').execute();
        expect(await ensureAdmin(trx, { username: 'first-env', password: 'env-password-1' })).toEqual({
          username: 'first-env',
          action: 'created',
        });
        roles.env = await roleOf(trx, 'first-env');
        await trx.deleteFrom('admins').execute();
        const generated = await ensureAdmin(trx, {});
        expect(generated).toMatchObject({ username: 'admin', action: 'created' });
        roles.generated = await roleOf(trx, 'admin');
        await trx.deleteFrom('admins').execute();
        // `pnpm admin:create <username> [password]` (src/cli/admin-create.ts) is this function.
        expect(await upsertAdmin(trx, 'first-cli', 'cli-password-1')).toBe('created');
        roles.cli = await roleOf(trx, 'first-cli');
        throw rollback;
      }),
    ).rejects.toBe(rollback);
    expect(roles).toEqual({ env: 'owner', generated: 'owner', cli: 'owner' });

    // And the server treats it as one: the team (owner only) is open to it.
    expect(await ensureAdmin(h.db, { username: 'env-owner', password: 'env-password-1' })).toMatchObject({
      action: 'created',
    });
    expect(await upsertAdmin(h.db, 'cli-owner', 'cli-password-1')).toBe('created');
    for (const [username, password] of [
      ['env-owner', 'env-password-1'],
      ['cli-owner', 'cli-password-1'],
    ] as const) {
      const login = await post('/api/admin/login', { username, password });
      expect(login.statusCode, login.body).toBe(200);
      expect(login.json().user).toMatchObject({ adminRole: 'owner' });
      expect((await get('/api/admin/team', cookieOf(login))).statusCode).toBe(200);
    }
  });
});

describe('roles and removal', () => {
  it('an owner changes a role and removes an admin, whose sessions end at once', async () => {
    const cookie = await signInAdmin(h.app, 'team-member');
    const id = await adminId('team-member');
    expect((await post(`/api/admin/team/${id}/role`, { role: 'reviewer' }, ownerCookie)).statusCode).toBe(200);
    expect((await get('/api/auth/user', cookie)).json().adminRole).toBe('reviewer');
    const team = (await get('/api/admin/team', ownerCookie)).json();
    expect(team.admins.find((a: { id: string }) => a.id === id).role).toBe('reviewer');
    expect((await del(`/api/admin/team/${id}`, ownerCookie)).statusCode).toBe(200);
    expect((await get('/api/auth/user', cookie)).statusCode).toBe(401);
    const audit = await h.db
      .selectFrom('auditLogs')
      .select('eventType')
      .where('eventType', 'like', 'admin.%')
      .execute();
    expect(audit.map((a) => a.eventType)).toEqual(expect.arrayContaining(['admin.role_changed', 'admin.removed']));
  });

  it('the last owner can be neither demoted nor removed', async () => {
    await h.db.updateTable('admins').set({ role: 'viewer' }).where('username', '<>', 'team-owner').execute();
    const id = await adminId('team-owner');
    const demote = await post(`/api/admin/team/${id}/role`, { role: 'reviewer' }, ownerCookie);
    expect(demote.statusCode).toBe(409);
    expect(demote.json().message).toMatch(/at least one owner/);
    expect((await del(`/api/admin/team/${id}`, ownerCookie)).statusCode).toBe(409);
    expect(await ownerCount()).toBe(1);
  });

  it('two owners demoting each other at once leave one owner', async () => {
    for (let round = 0; round < 5; round++) {
      await h.db.updateTable('admins').set({ role: 'viewer' }).execute();
      const a = await signInAdmin(h.app, `race-a-${round}`);
      const b = await signInAdmin(h.app, `race-b-${round}`);
      await h.db
        .updateTable('admins')
        .set({ role: 'owner' })
        .where('username', 'in', [`race-a-${round}`, `race-b-${round}`])
        .execute();
      const [idA, idB] = [await adminId(`race-a-${round}`), await adminId(`race-b-${round}`)];
      const results = await Promise.all([
        post(`/api/admin/team/${idB}/role`, { role: 'viewer' }, a),
        post(`/api/admin/team/${idA}/role`, { role: 'viewer' }, b),
      ]);
      // The second to run is either refused (the other is the last owner) or no longer an owner itself (403).
      const other = results.map((r) => r.statusCode).filter((s) => s !== 200);
      expect(other).toHaveLength(1);
      expect([403, 409]).toContain(other[0]);
      expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
      expect(await ownerCount()).toBe(1);
    }
    await h.db.updateTable('admins').set({ role: 'owner' }).where('username', '=', 'team-owner').execute();
  });

  it('two owners removing each other at once leave one owner', async () => {
    await h.db.updateTable('admins').set({ role: 'viewer' }).execute();
    const a = await signInAdmin(h.app, 'rm-a');
    const b = await signInAdmin(h.app, 'rm-b');
    await h.db.updateTable('admins').set({ role: 'owner' }).where('username', 'in', ['rm-a', 'rm-b']).execute();
    const [idA, idB] = [await adminId('rm-a'), await adminId('rm-b')];
    const results = await Promise.all([del(`/api/admin/team/${idB}`, a), del(`/api/admin/team/${idA}`, b)]);
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
    expect(await ownerCount()).toBe(1);
    await h.db.updateTable('admins').set({ role: 'owner' }).where('username', '=', 'team-owner').execute();
  });
});

describe('own account', () => {
  it('changing the own password needs the current one and ends the other sessions, not this one', async () => {
    const here = await signInAdmin(h.app, 'pw-admin', 'old-password-1');
    await h.db.updateTable('admins').set({ role: 'viewer' }).where('username', '=', 'pw-admin').execute();
    const elsewhere = (await post('/api/admin/login', { username: 'pw-admin', password: 'old-password-1' })).headers[
      'set-cookie'
    ];
    const other = String(Array.isArray(elsewhere) ? elsewhere[0] : elsewhere).split(';')[0]!;
    const sessions = (await get('/api/admin/me/sessions', here)).json();
    expect(sessions).toHaveLength(2);
    expect(sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1);

    const wrong = await post(
      '/api/admin/me/password',
      { currentPassword: 'nope', newPassword: 'new-password-1' },
      here,
    );
    expect(wrong.statusCode).toBe(400);
    const ok = await post(
      '/api/admin/me/password',
      { currentPassword: 'old-password-1', newPassword: 'new-password-1' },
      here,
    );
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().otherSessionsEnded).toBe(1);
    expect((await get('/api/auth/user', here)).statusCode).toBe(200);
    expect((await get('/api/auth/user', other)).statusCode).toBe(401);
    expect((await post('/api/admin/login', { username: 'pw-admin', password: 'old-password-1' })).statusCode).toBe(401);
    expect((await post('/api/admin/login', { username: 'pw-admin', password: 'new-password-1' })).statusCode).toBe(200);
  });

  it('an admin sees and ends their own sessions, and no one else’s', async () => {
    const mine = await signInAdmin(h.app, 'sess-admin');
    const second = cookieOf(await post('/api/admin/login', { username: 'sess-admin', password: 'admin-password-1' }));
    const list = (await get('/api/admin/me/sessions', mine)).json() as { ref: string; current: boolean }[];
    const otherRef = list.find((s) => !s.current)!.ref;
    // Another admin cannot end it by naming its ref.
    const stranger = await signInAdmin(h.app, 'sess-stranger');
    expect((await del(`/api/admin/me/sessions/${otherRef}`, stranger)).statusCode).toBe(404);
    expect((await get('/api/auth/user', second)).statusCode).toBe(200);
    expect((await del(`/api/admin/me/sessions/${otherRef}`, mine)).statusCode).toBe(200);
    expect((await get('/api/auth/user', second)).statusCode).toBe(401);
    expect((await get('/api/auth/user', mine)).statusCode).toBe(200);
  });
});
