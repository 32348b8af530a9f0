import { sql } from '@dn/db';
import { TIERS } from '@dn/schema';
import { Webhook } from 'standardwebhooks';
import { fingerprint, keyring, seal } from '../src/lib/vault';
import { createDealer, type Harness, signInAdmin, TEST_DATA_KEY } from './helpers';

/** Shared by the partner-program tests (issue 13). */

export const WEBHOOK_SECRET = `whsec_${Buffer.from('partner-program-test-secret-0123456789').toString('base64')}`;

/** Signs a body the way a Standard Webhooks sender does. */
export function signedHeaders(body: string, opts: { secret?: string; at?: Date; id?: string } = {}) {
  const id = opts.id ?? `msg_${Math.random().toString(36).slice(2)}`;
  const at = opts.at ?? new Date();
  const signature = new Webhook(opts.secret ?? WEBHOOK_SECRET).sign(id, at, body);
  return {
    'content-type': 'application/json',
    'webhook-id': id,
    'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
    'webhook-signature': signature,
  };
}

export function postWebhook(h: Harness, payload: unknown, opts: Parameters<typeof signedHeaders>[1] = {}) {
  const body = typeof payload === 'string' ? payload : JSON.stringify(payload);
  return h.app.inject({
    method: 'POST',
    url: '/api/integrations/orders',
    headers: signedHeaders(body, opts),
    payload: body,
  });
}

/** A recruiter (with a recruiter id) and a dealer they referred, approved `approvedDaysAgo` days ago. */
export async function referredPair(
  h: Harness,
  opts: { tier?: 'Affiliate' | 'Authorized' | 'Preferred'; approvedDaysAgo?: number } = {},
) {
  const recruiter = await createDealer(h.db, { status: 'active', fullName: 'Rita Recruiter' });
  const rid = `rita${Math.random().toString(36).slice(2, 10)}`;
  await h.db.updateTable('dealers').set({ recruiterId: rid }).where('id', '=', recruiter.id).execute();
  await givePayoutProfile(h, recruiter.id);
  const dealer = await createDealer(h.db, {
    status: 'approved',
    referredBy: recruiter.id,
    tier: opts.tier ?? 'Affiliate',
    fullName: 'Dan Dealer',
  });
  const approvedAt = new Date(Date.now() - (opts.approvedDaysAgo ?? 1) * 86_400_000);
  await h.db.updateTable('dealers').set({ approvalDate: approvedAt }).where('id', '=', dealer.id).execute();
  return { recruiter: { ...recruiter, recruiterId: rid }, dealer };
}

export async function setRule(
  h: Harness,
  cookie: string,
  tier: string,
  rule: { type: 'percent' | 'fixed'; value: string; appliesTo: 'first' | 'all'; months?: number; holdDays?: number },
) {
  const res = await h.app.inject({
    method: 'PUT',
    url: `/api/admin/commission-rules/${tier}`,
    headers: { cookie },
    payload: rule,
  });
  if (res.statusCode !== 200) throw new Error(`setRule ${res.statusCode} ${res.body}`);
  return res.json();
}

/** The same commission rule for every tier (tests of who earns, whatever the referred dealer's tier). */
export async function setRuleForEveryTier(h: Harness, cookie: string, rule: Parameters<typeof setRule>[3]) {
  for (const tier of TIERS) await setRule(h, cookie, tier, rule);
}

/**
 * Rewrites the clocks of a dealer's orders as if each had been recorded when it was placed (its
 * commission's hold moved back by as much): since issue 35, finding 4, the hold runs from when an
 * order was recorded, so a test of what happens after the hold moves time, as the sessions tests do.
 */
export async function asIfRecordedWhenOrdered(h: Harness, dealerId: string) {
  await sql`update commissions c set hold_until = c.hold_until - (o.created_at - o.ordered_at)
    from orders o where o.id = c.order_ref and o.dealer_id = ${dealerId} and c.hold_until is not null
      and o.created_at > o.ordered_at`.execute(h.db);
  await sql`update orders set created_at = ordered_at where dealer_id = ${dealerId} and created_at > ordered_at`.execute(
    h.db,
  );
}

export const daysAgo = (n: number) => new Date(Date.now() - n * 86_400_000).toISOString();

export async function counts(h: Harness) {
  const [o, c] = await Promise.all([
    h.db
      .selectFrom('orders')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
    h.db
      .selectFrom('commissions')
      .select((eb) => eb.fn.countAll<string>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { orders: Number(o.n), commissions: Number(c.n) };
}

export { signInAdmin };

let payeeSeq = 0;
/**
 * Complete payout details and a signed W-9 for a dealer, written directly (issue 39: a batch pays
 * only those): direct deposit unless `method` says check; a distinct TIN and account each call.
 */
export async function givePayoutProfile(
  h: Harness,
  dealerId: string,
  opts: { method?: 'ach' | 'check'; taxClassification?: string; account?: string; tin?: string } = {},
) {
  const ring = keyring(TEST_DATA_KEY);
  const n = ++payeeSeq;
  const tin = opts.tin ?? `5${String(10_000_000 + n).slice(-8)}`;
  const account = opts.account ?? `9${String(1_000_000 + n)}`;
  const ach = (opts.method ?? 'ach') === 'ach';
  await h.db
    .insertInto('payoutProfiles')
    .values({
      dealerId,
      legalName: `Payee ${n}`,
      taxClassification: opts.taxClassification ?? 'individual',
      tinType: 'ssn',
      tinEnc: seal(ring, tin),
      tinLast4: tin.slice(-4),
      tinHash: fingerprint(ring, 'tin', tin),
      addressJson: JSON.stringify({ street: `${n} Main St`, city: 'Austin', state: 'TX', zipCode: '78701' }),
      method: ach ? 'ach' : 'check',
      routingNumber: ach ? '011000015' : null,
      accountEnc: ach ? seal(ring, account) : null,
      accountLast4: ach ? account.slice(-4) : null,
      accountHash: ach ? fingerprint(ring, 'account', `011000015:${account}`) : null,
      accountType: ach ? 'checking' : null,
      certifiedName: `Payee ${n}`,
      certifiedAt: new Date(),
      certificationVersion: 'w9-2024-03',
    })
    .onConflict((oc) => oc.column('dealerId').doNothing())
    .execute();
}

/** Owner payment settings (issue 39): the ACH originator and the 1099 payer. */
export const PAYMENT_SETTINGS = {
  companyName: 'Dealer Network',
  companyId: '1123456789',
  originatingRouting: '011000015',
  originatingBankName: 'First Test Bank',
  payerName: 'Dealer Network LLC',
  payerTin: '12-3456789',
  payerAddress: { street: '9 Market St', city: 'Austin', state: 'TX', zipCode: '78702' },
};
