import { createHash } from 'node:crypto';
import { sql } from '@dn/db';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailHarness, type MailHarness, signInAdmin, uniqueEmail } from '../helpers';

/**
 * Issue 12: an admin invitation's one-time link rests only as its SHA-256, like a dealer's
 * magic link. The raw token is read from the email a real SMTP server received and searched for
 * in every row of the tables an invitation writes; a superseded invitation's email is not sent.
 */
let h: MailHarness;
let owner: string;
beforeAll(async () => {
  h = await createMailHarness();
  owner = await signInAdmin(h.app, 'invite-token-owner');
});
afterAll(async () => {
  await h?.close();
});

const sha256 = (v: string) => createHash('sha256').update(v).digest('hex');
const invite = (email: string) =>
  h.app.inject({
    method: 'POST',
    url: '/api/admin/team/invitations',
    headers: { cookie: owner },
    payload: { email, role: 'viewer' },
  });

/** Every row of the tables an invitation touches, as text. */
async function everyRow(): Promise<string> {
  const tables = ['magic_link_tokens', 'admin_invitations', 'email_outbox', 'audit_logs', 'admins'];
  const parts: string[] = [];
  for (const t of tables) {
    const r = await sql<{ j: string }>`select coalesce(json_agg(x)::text, '') as j from ${sql.table(t)} x`.execute(
      h.db,
    );
    parts.push(r.rows[0]!.j);
  }
  return parts.join('\n');
}

describe('admin invitation tokens at rest', () => {
  it('the table holds only the SHA-256 of the invitation link; the raw token is in no row, yet it works once', async () => {
    const email = uniqueEmail('invitee');
    expect((await invite(email)).statusCode).toBe(200);
    const mail = await h.smtp.waitFor(email, /invited/);
    const token = /accept-invite\?token=([A-Za-z0-9_-]{43})/.exec(mail.text)?.[1];
    expect(token).toBeDefined();

    const stored = await h.db
      .selectFrom('magicLinkTokens')
      .innerJoin('adminInvitations', 'adminInvitations.id', 'magicLinkTokens.invitationId')
      .select(['magicLinkTokens.token'])
      .where('adminInvitations.email', '=', email)
      .execute();
    expect(stored).toEqual([{ token: sha256(token!) }]);
    // Once the email has left, its stored body is scrubbed too: the token is nowhere at rest. The
    // flush resolves once the sender's running pass (which sent it) and one more have ended, so the
    // row is marked sent by then, however slow the machine (it was a 5 s poll, issue 46).
    await h.app.deps.mail.flush();
    const left = await h.db.selectFrom('emailOutbox').select('status').where('toAddress', '=', email).execute();
    expect(left.map((m) => m.status)).toEqual(['sent']);
    expect(await everyRow()).not.toContain(token!);

    const accept = (t: string) =>
      h.app.inject({
        method: 'POST',
        url: '/api/auth/accept-invite',
        payload: { token: t, fullName: 'Invited Viewer', password: 'invited-pass-12' },
      });
    // The stored value is not a credential: presenting the hash does nothing.
    expect((await accept(sha256(token!).slice(0, 43))).statusCode).toBe(400);
    expect((await accept(token!)).statusCode).toBe(200);
    expect((await accept(token!)).statusCode).toBe(410);
  });

  it('a second invitation to the same address retires the first link; the outbox row keeps the hash, not the link', async () => {
    const email = uniqueEmail('twice');
    expect((await invite(email)).statusCode).toBe(200);
    expect((await invite(email)).statusCode).toBe(200);
    const rows = await h.db.selectFrom('emailOutbox').select(['tokenHash']).where('toAddress', '=', email).execute();
    expect(rows).toHaveLength(2);
    const live = await h.db
      .selectFrom('magicLinkTokens')
      .innerJoin('adminInvitations', 'adminInvitations.id', 'magicLinkTokens.invitationId')
      .select(['magicLinkTokens.token', 'magicLinkTokens.used'])
      .where('adminInvitations.email', '=', email)
      .execute();
    expect(live.filter((t) => !t.used)).toHaveLength(1);
    for (const r of rows) expect(live.map((t) => t.token)).toContain(r.tokenHash);
  });
});
