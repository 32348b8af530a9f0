import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShiftedClock } from '../src/lib/clock';
import { DEFAULT_LIMITS } from '../src/services/accounts/rate-limit';
import { SWEEPS } from '../src/services/scheduler/sweeps';
import { createDealer, createHarness, type Harness, signInAdmin, signInDealer, uniqueEmail } from './helpers';

/**
 * Issue 45, finding 7 (decisions 1021-1023): every email the network sends to someone who did not
 * ask for it has a budget. A dealer's or an admin's job spends the homeowner's mailbox budget (5 an
 * hour, `+tag` and case variants included, also under parallel registrations); unrouted jobs reach
 * the team as one digest at most every 15 minutes with a count, not the requester's words, in the
 * subject; and a name with a URL or markup reaches no mailbox as a link.
 */

const clock = new ShiftedClock();
let h: Harness;
let owner = '';
let dealer = '';
const MAX = DEFAULT_LIMITS.mailPerRecipient.max;
const MINUTE = 60_000;

beforeAll(async () => {
  h = await createHarness({ clock, limits: { mailPerRecipient: DEFAULT_LIMITS.mailPerRecipient } });
  owner = await signInAdmin(h.app, 'budget-owner');
  await h.db
    .updateTable('admins')
    .set({ email: 'budget-owner@ops.test' })
    .where('username', '=', 'budget-owner')
    .execute();
  const d = await createDealer(h.db, { tier: 'Affiliate', status: 'active' });
  dealer = await signInDealer(h.app, d.email);
}, 180_000);
afterAll(async () => {
  await h?.close();
});

const job = (email: string, fullName = 'Hanna Homeowner') => ({
  homeowner: { fullName, email, phone: '512-555-0199' },
  street: '12 Elm St',
  city: 'Somewhere',
  state: 'NE',
  zipCode: '68102',
});
const post = (url: string, cookie: string | undefined, payload: unknown) =>
  h.app.inject({ method: 'POST', url, ...(cookie ? { headers: { cookie } } : {}), payload: payload as object });
const received = (like: string) =>
  h.db
    .selectFrom('emailOutbox')
    .select(['toAddress', 'textBody', 'htmlBody', 'subject'])
    .where('kind', '=', 'job_received')
    .where('toAddress', 'ilike', like)
    .execute();
const digests = () =>
  h.db
    .selectFrom('emailOutbox')
    .select(['toAddress', 'subject', 'textBody', 'htmlBody'])
    .where('kind', '=', 'job_unrouted')
    .orderBy('seq')
    .execute();
const digestSweep = SWEEPS.find((s) => s.name === 'jobs.unrouted-digest')!;

describe("jobs spend the homeowner's mailbox budget", () => {
  it(`12 parallel dealer registrations to one mailbox (plus-addressed, any case): 12 jobs, at most ${MAX} emails`, async () => {
    const box = `flood${Date.now().toString(36)}`;
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) =>
        post('/api/dealer/jobs', dealer, job(i % 2 ? `${box}+${i}@Example.com` : `${box.toUpperCase()}@example.com`)),
      ),
    );
    for (const a of answers) expect(a.statusCode, a.body).toBe(201);
    const jobs = await h.db.selectFrom('jobs').select('id').where('homeownerEmail', 'ilike', `${box}%`).execute();
    expect(jobs).toHaveLength(12);
    expect(await received(`${box}%`)).toHaveLength(MAX);
    const limited = await h.db
      .selectFrom('auditLogs')
      .select('details')
      .where('eventType', '=', 'job.homeowner_mail_limited')
      .execute();
    expect(limited.filter((l) => (l.details as { origin?: string }).origin === 'dealer')).toHaveLength(12 - MAX);

    // An admin's job to the same mailbox is made, and not emailed either.
    const byAdmin = await post('/api/admin/jobs', owner, job(`${box}+admin@example.com`));
    expect(byAdmin.statusCode, byAdmin.body).toBe(201);
    expect(await received(`${box}%`)).toHaveLength(MAX);
    // Another mailbox has its own budget.
    const other = uniqueEmail('other-home');
    expect((await post('/api/dealer/jobs', dealer, job(other))).statusCode).toBe(201);
    expect(await received(other)).toHaveLength(1);
  });

  it('an admin-created job spends the same budget: the sixth in an hour is not emailed', async () => {
    const box = uniqueEmail('admin-flood');
    for (let i = 0; i < MAX + 2; i++) {
      const res = await post('/api/admin/jobs', owner, job(box));
      expect(res.statusCode, res.body).toBe(201);
    }
    expect(await received(box)).toHaveLength(MAX);
  });
});

describe('unrouted jobs reach the team as one digest at most every 15 minutes', () => {
  const quote = (fullName: string) => ({
    fullName,
    email: uniqueEmail('asker'),
    phone: '303-555-0142',
    street: '5 Pine Rd',
    city: 'Visit http://phish.example now',
    state: 'NE',
    zipCode: '68102',
    consent: true,
  });

  it('three quotes in an uncovered ZIP: no email each, then one digest per owner and reviewer, no requester text in the subject', async () => {
    await digestSweep.run(h.app.deps); // whatever the tests above left unrouted
    const before = (await digests()).length;
    clock.advance(16 * MINUTE);
    try {
      for (const name of ['Claim your prize at evil.example', 'Zed <b>Bold</b>', 'Plain Person']) {
        const res = await post('/api/quote-requests', undefined, quote(name));
        expect(res.statusCode, res.body).toBe(201);
        expect(res.json().status).toBe('unrouted');
      }
      expect(await digests()).toHaveLength(before);
      // Two instances' sweeps at once: one digest.
      const sent = await Promise.all([digestSweep.run(h.app.deps), digestSweep.run(h.app.deps)]);
      expect(sent.filter((n) => n > 0)).toHaveLength(1);
      const now = (await digests()).slice(before);
      expect(now.map((m) => m.toAddress)).toEqual(['budget-owner@ops.test']);
      const [d] = now;
      expect(d!.subject).toBe('3 jobs need an installer');
      expect(d!.textBody).toContain('ZIP code 68102');
      for (const part of [d!.subject, d!.textBody, d!.htmlBody ?? '']) {
        expect(part).not.toMatch(/prize|Bold|Plain Person|phish/);
      }

      // Another within 15 minutes waits for the next digest.
      expect((await post('/api/quote-requests', undefined, quote('Late Asker'))).statusCode).toBe(201);
      clock.advance(5 * MINUTE);
      expect(await digestSweep.run(h.app.deps)).toBe(0);
      expect(await digests()).toHaveLength(before + 1);
      clock.advance(10 * MINUTE);
      expect(await digestSweep.run(h.app.deps)).toBe(1);
      const last = (await digests()).at(-1)!;
      expect(last.subject).toBe('1 job needs an installer');
    } finally {
      clock.advance(-31 * MINUTE);
    }
  });
});

describe('names and notes with URLs or markup are inert in every email', () => {
  it("the homeowner's own name, typed as a URL with markup, comes back as text: no link, escaped", async () => {
    const email = uniqueEmail('inert');
    const name = 'Win http://evil.example/login <a href="https://evil.example">here</a> www.evil.example';
    expect((await post('/api/quote-requests', undefined, { ...quoteOf(email), fullName: name })).statusCode).toBe(201);
    const [m] = await received(email);
    expect(m).toBeDefined();
    for (const part of [m!.textBody, m!.htmlBody ?? '']) {
      expect(part).not.toMatch(/evil\.example|https?:\/\/evil/);
      expect(part).toContain('evil[.]example');
    }
    expect(m!.htmlBody).not.toContain('<a href="https://evil');
    expect(m!.htmlBody).toContain('&lt;a href=');
    // The one link is the status page on the site.
    const links = [...(m!.htmlBody ?? '').matchAll(/<a href="([^"]+)"/g)].map((x) => x[1]);
    expect(links).toHaveLength(1);
    expect(links[0]).toMatch(/^https:\/\/dealers\.test\/quote\//);
  });
});

function quoteOf(email: string) {
  return {
    fullName: 'x',
    email,
    phone: '303-555-0142',
    street: '5 Pine Rd',
    city: 'Omaha',
    state: 'NE',
    zipCode: '68102',
    consent: true,
  };
}
