import { sql } from '@dn/db';
import { DEALER_EXPORT_COLUMNS as SQL_COLUMNS } from '@dn/db/queries/dealers-export';
import { DEALER_EXPORT_COLUMN_KEYS, DEALER_EXPORT_COLUMNS as SCHEMA_COLUMNS } from '@dn/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXPORT_BATCH } from '../src/services/dealers/export';
import { createDealer, createHarness, type Harness, signInAdmin, signInDealer } from './helpers';

// The filtered export and its column picker (issue 14, docs/decisions/0730-filtered-export.md).

let h: Harness;
let owner: string;
let reviewer: string;
let viewer: string;
let dealer: string;
const TAG = 'zqxfilt';

const at = (s: string) => new Date(s);
const base = {
  phoneE164: '+15551234567',
  updatedAt: new Date(),
};

beforeAll(async () => {
  h = await createHarness();
  owner = await signInAdmin(h.app, 'exp-owner');
  reviewer = await signInAdmin(h.app, 'exp-reviewer');
  viewer = await signInAdmin(h.app, 'exp-viewer');
  await h.db.updateTable('admins').set({ role: 'reviewer' }).where('username', '=', 'exp-reviewer').execute();
  await h.db.updateTable('admins').set({ role: 'viewer' }).where('username', '=', 'exp-viewer').execute();
  const d = await createDealer(h.db, { email: 'signed.in@dealer.test', fullName: 'Signed In Dealer' });
  dealer = await signInDealer(h.app, d.email);
  await h.db
    .insertInto('dealers')
    .values([
      {
        ...base,
        email: 'alpha@exp.test',
        fullName: `Alpha ${TAG}`,
        companyName: '=1+1',
        tier: 'Preferred',
        status: 'pending',
        createdAt: at('2025-01-01T00:00:01.5Z'),
      },
      {
        ...base,
        email: 'bravo@exp.test',
        fullName: `bravo ${TAG}`,
        companyName: 'Comma, "Quoted"',
        tier: 'Affiliate',
        status: 'pending',
        createdAt: at('2025-01-03T10:20:30Z'),
      },
      {
        ...base,
        email: 'charlie@exp.test',
        fullName: `Charlie ${TAG}`,
        companyName: null,
        tier: 'Affiliate',
        status: 'pending',
        createdAt: at('2025-01-02T00:00:00Z'),
      },
      {
        ...base,
        email: 'delta@exp.test',
        fullName: `Delta ${TAG}`,
        companyName: '@cmd',
        tier: 'Affiliate',
        status: 'approved',
        createdAt: at('2025-01-04T00:00:00Z'),
      },
      {
        ...base,
        email: 'echo@exp.test',
        fullName: 'Echo Elsewhere',
        companyName: 'Other Co',
        tier: 'Affiliate',
        status: 'pending',
        createdAt: at('2025-01-05T00:00:00Z'),
      },
    ])
    .execute();
});
afterAll(async () => {
  await h?.close();
});

const exportAs = (cookie: string | undefined, query = '') =>
  h.app.inject({ url: `/api/admin/dealers/export${query}`, headers: cookie ? { cookie } : {} });

const exports = async () =>
  Number(
    (
      await h.db
        .selectFrom('auditLogs')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('eventType', '=', 'dealers.exported')
        .executeTakeFirstOrThrow()
    ).n,
  );

const BOM = '\uFEFF';

describe('the column list', () => {
  it('names the same columns, in the same order, in @dn/schema and in the SQL', () => {
    expect(SQL_COLUMNS.map(([key, header]) => [key, header])).toEqual(SCHEMA_COLUMNS.map((c) => [c.key, c.label]));
  });
});

describe('GET /api/admin/dealers/export with the list filter and chosen columns', () => {
  it('writes the search, status and sort with the chosen columns, byte for byte', async () => {
    const before = await exports();
    const res = await exportAs(
      reviewer,
      `?q=${TAG}&status=pending&sort=fullName&dir=asc&columns=fullName,email,companyName,tier,createdAt`,
    );
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const expected =
      `${BOM}Full Name,Email,Company Name,Tier,Created At\r\n` +
      `Alpha ${TAG},alpha@exp.test,'=1+1,Preferred,2025-01-01T00:00:01Z\r\n` +
      `bravo ${TAG},bravo@exp.test,"Comma, ""Quoted""",Affiliate,2025-01-03T10:20:30Z\r\n` +
      `Charlie ${TAG},charlie@exp.test,,Affiliate,2025-01-02T00:00:00Z\r\n`;
    expect(res.rawPayload.equals(Buffer.from(expected, 'utf8'))).toBe(true);
    expect(await exports()).toBe(before + 1);
    const row = await h.db
      .selectFrom('auditLogs')
      .select('details')
      .where('eventType', '=', 'dealers.exported')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(row.details).toMatchObject({
      actor: 'exp-reviewer',
      filter: { q: TAG, status: 'pending', sort: 'fullName', dir: 'asc' },
      columns: ['fullName', 'email', 'companyName', 'tier', 'createdAt'],
    });
  });

  it('follows the columns in the order asked, the tier filter, and each direction of each sort', async () => {
    const cases: [string, string][] = [
      [
        `?q=${TAG}&tier=Affiliate&sort=fullName&dir=desc&columns=email,fullName`,
        `${BOM}Email,Full Name\r\ndelta@exp.test,Delta ${TAG}\r\ncharlie@exp.test,Charlie ${TAG}\r\nbravo@exp.test,bravo ${TAG}\r\n`,
      ],
      // Newest first, the default order.
      [
        `?q=${TAG}&columns=email,status`,
        `${BOM}Email,Status\r\ndelta@exp.test,approved\r\nbravo@exp.test,pending\r\ncharlie@exp.test,pending\r\nalpha@exp.test,pending\r\n`,
      ],
      [
        `?q=${TAG}&sort=createdAt&dir=asc&columns=email`,
        `${BOM}Email\r\nalpha@exp.test\r\ncharlie@exp.test\r\nbravo@exp.test\r\ndelta@exp.test\r\n`,
      ],
      // Then newest first within a tier.
      [
        `?q=${TAG}&sort=tier&dir=asc&columns=tier,email`,
        `${BOM}Tier,Email\r\nAffiliate,delta@exp.test\r\nAffiliate,bravo@exp.test\r\nAffiliate,charlie@exp.test\r\nPreferred,alpha@exp.test\r\n`,
      ],
      // The search covers company and email as the list's does; a formula start is neutralised.
      [`?q=delta%40exp&columns=companyName`, `${BOM}Company Name\r\n'@cmd\r\n`],
      [`?q=nobody-matches&columns=email`, `${BOM}Email\r\n`],
      // A repeated parameter is read as one list.
      [`?q=${TAG}&status=approved&columns=email&columns=tier`, `${BOM}Email,Tier\r\ndelta@exp.test,Affiliate\r\n`],
    ];
    for (const [query, expected] of cases) {
      const res = await exportAs(owner, query);
      expect(res.statusCode, query).toBe(200);
      expect(res.body, query).toBe(expected);
    }
  });

  it('pages a sorted export across batch boundaries exactly once and in the list order, ties included', async () => {
    const n = EXPORT_BATCH * 2 + 11;
    const t0 = Date.parse('2021-06-01T00:00:00.000001Z');
    await h.db
      .insertInto('dealers')
      .values(
        Array.from({ length: n }, (_, i) => ({
          ...base,
          email: `many${i}@batch.test`,
          // 7 names for 2,011 dealers, and many sharing a created_at: ties on every sort key.
          fullName: `Many ${['b', 'A', 'c', 'a', 'B', 'd', 'C'][i % 7]}`,
          companyName: i % 5 === 0 ? null : `Co ${i % 3}`,
          tier: (['Affiliate', 'Authorized', 'Preferred'] as const)[i % 3]!,
          status: (['pending', 'approved', 'rejected'] as const)[i % 3]!,
          createdAt: new Date(t0 + Math.floor(i / 4)),
        })),
      )
      .execute();
    const orders = {
      fullName: 'lower(d.full_name)',
      companyName: "lower(coalesce(d.company_name, ''))",
      tier: 'd.tier',
      status: 'd.status',
    } as const;
    for (const [sort, expr] of Object.entries(orders)) {
      for (const dir of ['asc', 'desc'] as const) {
        const res = await exportAs(owner, `?q=batch.test&sort=${sort}&dir=${dir}&columns=id`);
        expect(res.statusCode).toBe(200);
        const ids = res.body.slice(1).trimEnd().split('\r\n').slice(1);
        const want = await sql<{ id: string }>`
          select d.id::text as id from dealers d where d.email like '%@batch.test'
          order by ${sql.raw(expr)} ${sql.raw(dir)}, d.created_at desc, d.id ${sql.raw(dir)}`.execute(h.db);
        expect(ids.length, `${sort} ${dir}`).toBe(n);
        expect(ids, `${sort} ${dir}`).toEqual(want.rows.map((r) => r.id));
      }
    }
    for (const dir of ['asc', 'desc'] as const) {
      const res = await exportAs(owner, `?q=batch.test&dir=${dir}&columns=id`);
      const ids = res.body.slice(1).trimEnd().split('\r\n').slice(1);
      const want = await sql<{ id: string }>`
        select d.id::text as id from dealers d where d.email like '%@batch.test'
        order by d.created_at ${sql.raw(dir)}, d.id`.execute(h.db);
      expect(ids).toEqual(want.rows.map((r) => r.id));
    }
  }, 60_000);

  it('refuses a bad parameter with a 400 and its message, writing nothing', async () => {
    const before = await exports();
    const cases: [string, RegExp][] = [
      ['?columns=nope', /Unknown export column "nope"; choose from: id, createdAt, fullName/],
      ['?columns=email,password', /Unknown export column "password"/],
      ['?columns=', /Choose at least one column to export/],
      ['?columns=email,email', /Export column "email" is listed more than once/],
      ['?columns=email,', /Unknown export column ""/],
      ['?sort=password', /sort/i],
      ['?dir=sideways', /dir|option|expected/i],
      ['?status=deleted', /status/i],
      ['?tier=Gold', /tier/i],
      [`?q=${'x'.repeat(201)}`, /Search must be at most 200 characters/],
      [`?columns=${'email,'.repeat(400)}email`, /Too many columns/],
    ];
    for (const [query, message] of cases) {
      const res = await exportAs(owner, query);
      expect(res.statusCode, query).toBe(400);
      expect(res.headers['content-type'], query).toMatch(/application\/json/);
      const body = res.json() as { message: string; fieldErrors?: Record<string, string> };
      expect(`${body.message} ${JSON.stringify(body.fieldErrors ?? {})}`, query).toMatch(message);
    }
    expect(await exports()).toBe(before);
  });

  it('is refused to a visitor (401), a dealer and a viewer (403), and writes nothing', async () => {
    const before = await exports();
    expect((await exportAs(undefined, `?q=${TAG}&columns=email`)).statusCode).toBe(401);
    expect((await exportAs(dealer, `?q=${TAG}&columns=email`)).statusCode).toBe(403);
    expect((await exportAs(viewer, `?q=${TAG}&columns=email`)).statusCode).toBe(403);
    expect((await exportAs(viewer)).statusCode).toBe(403);
    // A refusal comes before the parameters are read.
    expect((await exportAs(undefined, '?columns=nope')).statusCode).toBe(401);
    expect(await exports()).toBe(before);
  });
});

describe('the column picker, remembered per admin', () => {
  const URL = '/api/admin/preferences/export-columns';
  const read = (cookie: string) => h.app.inject({ url: URL, headers: { cookie } });
  const save = (cookie: string, payload: unknown) =>
    h.app.inject({ method: 'PUT', url: URL, headers: { cookie }, payload: payload as object });
  const stored = () => h.db.selectFrom('adminPreferences').select(['adminId', 'exportColumns']).execute();

  it('starts with every column, and each admin rereads their own choice', async () => {
    const fresh = await read(reviewer);
    expect(fresh.statusCode).toBe(200);
    expect(fresh.json()).toEqual({ columns: [...DEALER_EXPORT_COLUMN_KEYS], saved: false });

    const a = await save(reviewer, { columns: ['email', 'fullName', 'tier'] });
    expect(a.statusCode).toBe(200);
    expect(a.json()).toEqual({ columns: ['email', 'fullName', 'tier'], saved: true });
    const b = await save(owner, { columns: ['id'] });
    expect(b.statusCode).toBe(200);

    expect((await read(reviewer)).json()).toEqual({ columns: ['email', 'fullName', 'tier'], saved: true });
    expect((await read(owner)).json()).toEqual({ columns: ['id'], saved: true });
    // A second save replaces the first (one row per admin).
    await save(reviewer, { columns: ['phone', 'email'] });
    expect((await read(reviewer)).json()).toEqual({ columns: ['phone', 'email'], saved: true });
    expect((await read(owner)).json()).toEqual({ columns: ['id'], saved: true });
    expect(await stored()).toHaveLength(2);
    // Through tRPC too: the same procedure.
    const trpc = await h.app.inject({ url: '/trpc/admin.exportColumns', headers: { cookie: owner } });
    expect(trpc.statusCode).toBe(200);
    expect(trpc.json().result.data).toEqual({ columns: ['id'], saved: true });
  });

  it('drops a stored column that is no longer on the list', async () => {
    const id = (
      await h.db.selectFrom('admins').select('id').where('username', '=', 'exp-owner').executeTakeFirstOrThrow()
    ).id;
    await h.db
      .updateTable('adminPreferences')
      .set({ exportColumns: JSON.stringify(['gone', 'city']) })
      .where('adminId', '=', id)
      .execute();
    expect((await read(owner)).json()).toEqual({ columns: ['city'], saved: true });
    await save(owner, { columns: ['id'] });
  });

  it('refuses a bad choice with a 400 and keeps the saved one', async () => {
    const before = await stored();
    const cases: [unknown, RegExp][] = [
      [{ columns: ['nope'] }, /Unknown export column "nope"/],
      [{ columns: [] }, /Choose at least one column to export/],
      [{ columns: ['email', 'email'] }, /listed more than once/],
      [{ columns: 'email' }, /Choose at least one column to export/],
      [{ columns: [1] }, /Each column must be a column name/],
      [{}, /Choose at least one column to export/],
      [{ columns: Array.from({ length: 31 }, () => 'id') }, /At most 30 columns/],
    ];
    for (const [payload, message] of cases) {
      const res = await save(reviewer, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect((res.json() as { message: string }).message, JSON.stringify(payload)).toMatch(message);
    }
    expect(await stored()).toEqual(before);
  });

  it('is refused to a visitor, a dealer and a viewer, who store nothing', async () => {
    const before = await stored();
    expect((await h.app.inject({ url: URL })).statusCode).toBe(401);
    expect((await h.app.inject({ method: 'PUT', url: URL, payload: { columns: ['id'] } })).statusCode).toBe(401);
    expect((await read(dealer)).statusCode).toBe(403);
    expect((await save(dealer, { columns: ['id'] })).statusCode).toBe(403);
    expect((await read(viewer)).statusCode).toBe(403);
    expect((await save(viewer, { columns: ['id'] })).statusCode).toBe(403);
    expect(await stored()).toEqual(before);
  });

  it('two saves at once by one admin leave one row holding one of them', async () => {
    const choices = [['email'], ['fullName', 'city'], ['tier', 'status', 'id'], ['phone']];
    const results = await Promise.all(choices.map((columns) => save(reviewer, { columns })));
    expect(results.map((r) => r.statusCode)).toEqual([200, 200, 200, 200]);
    const reviewerId = (
      await h.db.selectFrom('admins').select('id').where('username', '=', 'exp-reviewer').executeTakeFirstOrThrow()
    ).id;
    const rows = (await stored()).filter((r) => r.adminId === reviewerId);
    expect(rows).toHaveLength(1);
    expect(choices).toContainEqual(rows[0]!.exportColumns);
    expect((await read(reviewer)).json()).toEqual({ columns: rows[0]!.exportColumns, saved: true });
  });
});
