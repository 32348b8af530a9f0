import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createTestDatabase,
  namedStatements,
  newDealer,
  planWithoutSorting,
  SORT_NODE,
  type TestDatabase,
} from '../testing';
import {
  affiliateStatsRows,
  countReferralOnDealersLink,
  findActiveLinkByRecruiterId,
  findLinkIdOfDealer,
  incrementLinkReferrals,
  insertAffiliateLink,
  uncountReferralOnDealersLink,
} from './affiliate-links';
import { insertDealer } from './dealers';
import { recentTrackingEvents, recruiterFunnel } from './insights';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.close();
});

const dealer = async (email: string, extra: { referredBy?: string } = {}) =>
  (await insertDealer(t.db, { ...newDealer(email), ...extra })).id;

const total = async (dealerId: string) =>
  (
    await t.db
      .selectFrom('affiliateLinks')
      .select('totalReferrals')
      .where('dealerId', '=', dealerId)
      .executeTakeFirstOrThrow()
  ).totalReferrals;

describe(`affiliate-links queries on ${process.env.TEST_DB}`, () => {
  it('creates one link per dealer and finds the active one by recruiter id regardless of case', async () => {
    const owner = await dealer('owner@links.test');
    expect(await findLinkIdOfDealer(t.db, owner)).toBeUndefined();
    const link = await insertAffiliateLink(t.db, {
      recruiterId: 'Solar-Sam',
      dealerId: owner,
      affiliateCode: 'ABCDEFGHJK',
    });
    expect(link).toEqual({ recruiterId: 'Solar-Sam', affiliateCode: 'ABCDEFGHJK', createdAt: expect.any(Date) });
    expect(await findLinkIdOfDealer(t.db, owner)).toEqual({ id: expect.any(String) });
    // Issue 35, finding 5: a link attributes only while its dealer is approved or active.
    expect(await findActiveLinkByRecruiterId(t.db, 'solar-SAM')).toBeUndefined();
    await t.db.updateTable('dealers').set({ status: 'active' }).where('id', '=', owner).execute();
    expect(await findActiveLinkByRecruiterId(t.db, 'solar-SAM')).toMatchObject({
      recruiterId: 'Solar-Sam',
      dealerId: owner,
      dealerEmail: 'owner@links.test',
    });
    await expect(
      insertAffiliateLink(t.db, { recruiterId: 'other', dealerId: owner, affiliateCode: 'ZZZZZZZZZZ' }),
    ).rejects.toThrow(/unique/i);
    await expect(
      insertAffiliateLink(t.db, {
        recruiterId: 'SOLAR-sam',
        dealerId: await dealer('copycat@links.test'),
        affiliateCode: 'YYYYYYYYYY',
      }),
    ).rejects.toThrow(/unique/i);

    await t.db.updateTable('affiliateLinks').set({ isActive: false }).where('dealerId', '=', owner).execute();
    expect(await findActiveLinkByRecruiterId(t.db, 'Solar-Sam')).toBeUndefined();
  });

  it('counts referrals up and down, never below zero', async () => {
    const owner = await dealer('counter@links.test');
    await insertAffiliateLink(t.db, { recruiterId: 'counter', dealerId: owner, affiliateCode: 'CCCCCCCCCC' });
    const { id } = (await findLinkIdOfDealer(t.db, owner))!;
    await incrementLinkReferrals(t.db, id);
    expect(await countReferralOnDealersLink(t.db, owner)).toEqual({ recruiterId: 'counter', totalReferrals: 2 });
    await uncountReferralOnDealersLink(t.db, owner);
    await uncountReferralOnDealersLink(t.db, owner);
    await uncountReferralOnDealersLink(t.db, owner);
    expect(await total(owner)).toBe(0);
    // A recruiter without a link: nothing to count.
    expect(await countReferralOnDealersLink(t.db, await dealer('nolink@links.test'))).toBeUndefined();
  });

  it("reads a dealer's link, referral count and most recent referrals in one statement", async () => {
    const me = await dealer('stats@links.test');
    const none = await affiliateStatsRows(t.db, me, 5);
    expect(none).toEqual([expect.objectContaining({ recruiterId: null, affiliateCode: null, id: null })]);
    expect(Number(none[0]?.total)).toBe(0);

    await insertAffiliateLink(t.db, { recruiterId: 'stats', dealerId: me, affiliateCode: 'SSSSSSSSSS' });
    const referred: string[] = [];
    for (let i = 0; i < 7; i++) referred.push(await dealer(`ref${i}@links.test`, { referredBy: me }));
    await dealer('someone-else@links.test', { referredBy: await dealer('other-recruiter@links.test') });

    const rows = await affiliateStatsRows(t.db, me, 5);
    expect(rows).toHaveLength(5);
    expect(rows.every((r) => r.recruiterId === 'stats' && Number(r.total) === 7)).toBe(true);
    // Newest first: the last five inserted, each one referred by this dealer.
    expect(new Set(rows.map((r) => r.id))).toEqual(new Set(referred.slice(2)));
    expect(rows[0]).not.toHaveProperty('password');
    // The compiled statement binds the limit afresh on every call.
    expect(await affiliateStatsRows(t.db, me, 2)).toHaveLength(2);
  });

  it("finds a recruiter's newest referrals from an index in that order, without sorting them", async () => {
    // The shape of the stats' lateral and the referral list (migration 0920). Sorting and scans of
    // the whole table are priced out, so only an index already in this order can avoid a Sort node.
    const me = await dealer('index@links.test');
    const plan = await planWithoutSorting(
      t,
      sql`select id from dealers where referred_by = ${me} order by created_at desc, id desc limit 5`,
    );
    expect(plan).toContain('"Index Name":"dealers_referred_recent_idx"');
    expect(plan).not.toMatch(SORT_NODE);
  });

  it("plans the Affiliate Tracking poll's two statements once per PostgreSQL connection, with no parameters", async () => {
    await t.db.connection().execute(async (c) => {
      await recruiterFunnel(c, 7);
      await recentTrackingEvents(c, 7);
      const rows = (await namedStatements(c)).filter((r) => r.statement.includes('limit 7'));
      // PGlite is one session behind its socket: nothing is named there (client.ts).
      expect(rows).toHaveLength(process.env.TEST_DB === 'postgres' ? 2 : 0);
      expect(rows.every((r) => r.parameterTypes === '{}')).toBe(true);
    });
  });

  it('finds the busiest recruiters of the admin funnel from an index in that order, without sorting every link', async () => {
    // The start of insights.ts recruiterFunnel, polled by the Affiliate Tracking page (migration 0940).
    const plan = await planWithoutSorting(
      t,
      sql`select * from affiliate_links order by total_referrals desc, created_at desc limit 50`,
    );
    expect(plan).toContain('"Index Name":"affiliate_links_busiest_idx"');
    expect(plan).not.toMatch(SORT_NODE);
  });
});
