import fc from 'fast-check';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing';
import { affiliateStatsRows } from './affiliate-links';
import { readSessionWithUser } from './sessions';

// A recruiter's affiliate-stats version (migration 0950, decision 0790) lets their poll answer 304
// without reading the stats. A change it misses would serve a recruiter stale figures with nothing
// to report it, so: through any sequence of changes to the dealers and links, whenever what the
// stats statement returns for a recruiter changes, that recruiter's version changes too (and it
// never goes back). And the changes the stats do not show leave it alone.

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.close();
});

const RECENT = 5;

async function versionOf(dealerId: string): Promise<bigint> {
  const r = await sql<{ n: string }>`
    select coalesce(sum(n), 0)::text as n from referral_versions where dealer_id = ${dealerId}`.execute(t.db);
  return BigInt(r.rows[0]!.n);
}

let seq = 0;
async function addDealer(referredBy: string | null = null, referralType: string | null = null): Promise<string> {
  seq++;
  const r = await sql<{ id: string }>`
    insert into dealers (tier, full_name, email, phone_e164, referred_by, referral_type, updated_at)
    values ('Affiliate', ${`Dealer ${seq}`}, ${`d${seq}@versions.test`}, '+15555550100', ${referredBy}, ${referralType}, now())
    returning id`.execute(t.db);
  return r.rows[0]!.id;
}

async function addLink(dealerId: string): Promise<void> {
  seq++;
  await sql`insert into affiliate_links (recruiter_id, dealer_id, affiliate_code)
    values (${`rec${seq}`}, ${dealerId}, ${`CODE${seq}`})`.execute(t.db);
}

/** What the stats statement says of each recruiter, and each one's version. */
async function observe(recruiters: readonly string[]) {
  return Promise.all(
    recruiters.map(async (id) => ({
      stats: JSON.stringify(await affiliateStatsRows(t.db, id, RECENT)),
      version: await versionOf(id),
    })),
  );
}

describe(`referral versions kept by triggers on ${process.env.TEST_DB}`, () => {
  it('move with each kind of change the stats show', async () => {
    const r = await addDealer();
    const other = await addDealer();
    let v = await versionOf(r);
    const moved = async (what: string, change: () => Promise<unknown>) => {
      await change();
      const now = await versionOf(r);
      expect(now, what).toBeGreaterThan(v);
      v = now;
    };
    await moved('link created', () => addLink(r));
    await moved('link renamed', () =>
      sql`update affiliate_links set recruiter_id = 'renamed' where dealer_id = ${r}`.execute(t.db),
    );
    await moved('code changed', () =>
      sql`update affiliate_links set affiliate_code = 'NEWCODE' where dealer_id = ${r}`.execute(t.db),
    );
    let referral = '';
    await moved('referral signs up', async () => {
      referral = await addDealer(r, 'automatic');
    });
    for (const [column, value] of [
      ['full_name', 'Renamed Referral'],
      ['email', 'moved@versions.test'],
      ['tier', 'Preferred'],
      ['referral_type', 'manual'],
      ['created_at', '2020-01-01T00:00:00Z'],
    ] as const) {
      await moved(`referral's ${column}`, () =>
        sql`update dealers set ${sql.ref(column)} = ${value} where id = ${referral}`.execute(t.db),
      );
    }
    await moved('referral moved away', () =>
      sql`update dealers set referred_by = ${other} where id = ${referral}`.execute(t.db),
    );
    await moved('referral moved back', () =>
      sql`update dealers set referred_by = ${r} where id = ${referral}`.execute(t.db),
    );
    await moved('referral deleted', () => sql`delete from dealers where id = ${referral}`.execute(t.db));
    await moved('link deleted', () => sql`delete from affiliate_links where dealer_id = ${r}`.execute(t.db));
    await addLink(r);
    v = await versionOf(r);
    await moved('links truncated', () => sql`truncate affiliate_links`.execute(t.db));
  });

  it('stay put for what the stats do not show, and a deleted dealer leaves no version behind', async () => {
    const r = await addDealer();
    await addLink(r);
    const referral = await addDealer(r, 'automatic');
    const before = await versionOf(r);
    await sql`update dealers set status = 'approved', phone_e164 = '+15555550199', updated_at = now() where id = ${referral}`.execute(
      t.db,
    );
    await sql`update dealers set full_name = full_name where id = ${referral}`.execute(t.db);
    await sql`update affiliate_links set total_referrals = total_referrals + 1, is_active = false where dealer_id = ${r}`.execute(
      t.db,
    );
    await sql`update dealers set company_name = 'Own Co' where id = ${r}`.execute(t.db);
    expect(await versionOf(r)).toBe(before);
    // The recruiter deleted: their referrals' referred_by is set null (a change to each), their
    // link cascades; nothing is kept for an id that no longer exists.
    await sql`delete from dealers where id = ${r}`.execute(t.db);
    const left = await sql<{
      n: string;
    }>`select count(*)::text as n from referral_versions where dealer_id = ${r}`.execute(t.db);
    expect(left.rows[0]!.n).toBe('0');
  });

  it('are bumped once per row naming a recruiter; rows naming none write nothing (migration 1000)', async () => {
    const r = await addDealer();
    expect(await versionOf(r)).toBe(0n);
    const rows = async () =>
      Number((await sql<{ n: string }>`select count(*)::text as n from referral_versions`.execute(t.db)).rows[0]!.n);
    const stored = await rows();
    // What the insert trigger passes for signups without a referral, and the degenerate arrays.
    for (const none of [sql`array[null]::uuid[]`, sql`array[]::uuid[]`, sql`null::uuid[]`]) {
      await sql`select referral_versions_bump(${none})`.execute(t.db);
    }
    expect(await rows()).toBe(stored);
    // A statement's rows, two naming the recruiter among ones naming none, and an id with no dealer.
    await sql`select referral_versions_bump(array[null, ${r}, null, ${r}, gen_random_uuid()]::uuid[])`.execute(t.db);
    expect(await versionOf(r)).toBe(2n);
    expect(await rows()).toBe(stored + 1);
    // Many calls on one connection: past the fifth PL/pgSQL may keep a generic plan, which must count alike.
    await t.db.transaction().execute(async (trx) => {
      for (let i = 0; i < 8; i++) await sql`select referral_versions_bump(array[${r}, null]::uuid[])`.execute(trx);
    });
    expect(await versionOf(r)).toBe(10n);
  });

  it('is read with the session: the dealer signed in gets their own version', async () => {
    const r = await addDealer();
    await sql`update dealers set status = 'approved' where id = ${r}`.execute(t.db);
    await addDealer(r, 'automatic');
    await sql`insert into sessions (sid, sess, expire)
      values ('versions-sid', ${JSON.stringify({ userId: r, role: 'dealer' })}::jsonb, now() + interval '1 hour')`.execute(
      t.db,
    );
    const read = await readSessionWithUser(t.db, 'versions-sid', ['approved']);
    expect(read?.dealer?.id).toBe(r);
    expect(read?.referralsVersion).toBe(String(await versionOf(r)));
    expect(Number(read?.referralsVersion)).toBeGreaterThan(0);
    const none = await readSessionWithUser(t.db, 'versions-sid', ['active']);
    expect(none?.referralsVersion).toBeNull();
  });

  it('whatever the sequence of changes, stats that change come with a new version', async () => {
    type Op =
      | { op: 'insert'; by: number | null; type: 'automatic' | 'manual' | null }
      | {
          op: 'update';
          i: number;
          column: 'full_name' | 'email' | 'tier' | 'referral_type' | 'created_at' | 'status' | 'referred_by';
          pick: number;
        }
      | { op: 'updateAll'; by: number; tier: 'Affiliate' | 'Authorized' | 'Preferred' }
      | { op: 'delete'; i: number }
      | { op: 'link'; by: number }
      | { op: 'unlink'; by: number }
      | { op: 'renameLink'; by: number; pick: number };
    const recruiterIndex = fc.integer({ min: 0, max: 2 });
    const ops = fc.array(
      fc.oneof(
        fc.record({
          op: fc.constant('insert' as const),
          by: fc.option(recruiterIndex, { nil: null }),
          type: fc.constantFrom('automatic' as const, 'manual' as const, null),
        }),
        fc.record({
          op: fc.constant('update' as const),
          i: fc.nat(),
          column: fc.constantFrom(
            'full_name' as const,
            'email' as const,
            'tier' as const,
            'referral_type' as const,
            'created_at' as const,
            'status' as const,
            'referred_by' as const,
          ),
          pick: fc.nat({ max: 3 }),
        }),
        fc.record({
          op: fc.constant('updateAll' as const),
          by: recruiterIndex,
          tier: fc.constantFrom('Affiliate' as const, 'Authorized' as const, 'Preferred' as const),
        }),
        fc.record({ op: fc.constant('delete' as const), i: fc.nat() }),
        fc.record({ op: fc.constant('link' as const), by: recruiterIndex }),
        fc.record({ op: fc.constant('unlink' as const), by: recruiterIndex }),
        fc.record({ op: fc.constant('renameLink' as const), by: recruiterIndex, pick: fc.nat({ max: 3 }) }),
      ),
      { minLength: 1, maxLength: 25 },
    );
    await fc.assert(
      fc.asyncProperty(ops, async (sequence: Op[]) => {
        const recruiters = [await addDealer(), await addDealer(), await addDealer()];
        // Two start with a link, so that taking one away is as likely as adding one.
        await addLink(recruiters[0]!);
        await addLink(recruiters[1]!);
        const referrals: string[] = [];
        let seen = await observe(recruiters);
        for (const o of sequence) {
          const target = referrals.length ? referrals[('i' in o ? o.i : 0) % referrals.length]! : null;
          switch (o.op) {
            case 'insert':
              referrals.push(await addDealer(o.by === null ? null : recruiters[o.by]!, o.type));
              break;
            case 'update': {
              if (!target) break;
              const value = {
                full_name: `Name ${o.pick}`,
                email: `pick${o.pick}.${seq++}@versions.test`,
                tier: ['Affiliate', 'Authorized', 'Preferred', 'Affiliate'][o.pick]!,
                referral_type: ['automatic', 'manual', null, 'automatic'][o.pick] ?? null,
                created_at: new Date(Date.UTC(2026, 0, 1 + o.pick)).toISOString(),
                status: ['pending', 'approved', 'active', 'rejected'][o.pick]!,
                referred_by: o.pick < 3 ? recruiters[o.pick]! : null,
              }[o.column];
              await sql`update dealers set ${sql.ref(o.column)} = ${value} where id = ${target}`.execute(t.db);
              break;
            }
            case 'updateAll':
              await sql`update dealers set tier = ${o.tier} where referred_by = ${recruiters[o.by]!}`.execute(t.db);
              break;
            case 'delete':
              if (!target) break;
              await sql`delete from dealers where id = ${target}`.execute(t.db);
              referrals.splice(referrals.indexOf(target), 1);
              break;
            case 'link':
              await sql`delete from affiliate_links where dealer_id = ${recruiters[o.by]!}`.execute(t.db);
              await addLink(recruiters[o.by]!);
              break;
            case 'unlink':
              await sql`delete from affiliate_links where dealer_id = ${recruiters[o.by]!}`.execute(t.db);
              break;
            case 'renameLink':
              await sql`update affiliate_links set recruiter_id = ${`r${o.pick}x${seq++}`}
                where dealer_id = ${recruiters[o.by]!}`.execute(t.db);
              break;
          }
          const now = await observe(recruiters);
          for (const [k, s] of now.entries()) {
            expect(s.version, 'a version never goes back').toBeGreaterThanOrEqual(seen[k]!.version);
            if (s.stats !== seen[k]!.stats)
              expect(s.version, `${o.op} changed the stats`).toBeGreaterThan(seen[k]!.version);
          }
          seen = now;
        }
      }),
      { numRuns: 60 },
    );
  });
});
