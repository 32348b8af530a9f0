import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDealer, createHarness, type Harness, signInAdmin } from './helpers';

let h: Harness;
let admin: string;
beforeAll(async () => {
  h = await createHarness();
  admin = await signInAdmin(h.app, 'exporter');
});
afterAll(async () => {
  await h?.close();
});

/** Splits RFC 4180 text into rows of cells (quoted fields may hold commas, quotes and newlines). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  if (cell || row.length) rows.push([...row, cell]);
  return rows;
}

describe('GET /api/admin/dealers/export', () => {
  it('streams RFC 4180 CSV with a header row, neutralised formulas and no password hashes', async () => {
    const evil = await createDealer(h.db, {
      fullName: '=HYPERLINK("https://evil.example","click")',
      companyName: '@SUM(A1:A9), "quoted"\nnext line',
      status: 'pending',
    });
    const plain = await createDealer(h.db, { fullName: 'Zoë Ünicode', companyName: '+Plus Co', status: 'approved' });
    const res = await h.app.inject({ url: '/api/admin/dealers/export', headers: { cookie: admin } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    const today = new Date().toISOString().slice(0, 10);
    expect(res.headers['content-disposition']).toBe(`attachment; filename="dealers-export-${today}.csv"`);
    expect(res.body.startsWith('\uFEFFID,Created At,Full Name,Company Name,Email,Phone,Tier,Status')).toBe(true);
    expect(res.body).not.toMatch(/argon2|\$2[aby]\$|password/i);
    const rows = parseCsv(res.body.slice(1));
    const header = rows[0]!;
    const byId = new Map(rows.slice(1).map((r) => [r[0], r]));
    const e = byId.get(evil.id)!;
    expect(e[header.indexOf('Full Name')]).toBe('\'=HYPERLINK("https://evil.example","click")');
    expect(e[header.indexOf('Company Name')]).toBe('\'@SUM(A1:A9), "quoted"\nnext line');
    expect(e[header.indexOf('Phone')]).toBe("'+15551234567");
    const p = byId.get(plain.id)!;
    expect(p[header.indexOf('Full Name')]).toBe('Zoë Ünicode');
    expect(p[header.indexOf('Company Name')]).toBe("'+Plus Co");
    expect(p[header.indexOf('Status')]).toBe('approved');
    expect(p[header.indexOf('City')]).toBe('Austin');
    expect(rows.slice(1).every((r) => r.length === header.length)).toBe(true);
    const audit = await h.db
      .selectFrom('auditLogs')
      .select('message')
      .where('eventType', '=', 'dealers.exported')
      .execute();
    expect(audit).toHaveLength(1);
  });

  it('pages through every dealer exactly once across batch boundaries', async () => {
    // Several dealers with one created_at: the keyset cursor must neither skip nor repeat ties.
    const at = new Date('2020-01-01T00:00:00.123456Z');
    await h.db
      .insertInto('dealers')
      .values(
        Array.from({ length: 4_100 }, (_, i) => ({
          email: `bulk${i}@export.test`,
          fullName: `Bulk ${i}`,
          tier: 'Affiliate' as const,
          phoneE164: '+15550000000',
          createdAt: i % 3 === 0 ? at : new Date(at.getTime() + i),
          updatedAt: new Date(),
        })),
      )
      .execute();
    const total = Number(
      (
        await h.db
          .selectFrom('dealers')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
    const res = await h.app.inject({ url: '/api/admin/dealers/export', headers: { cookie: admin } });
    const ids = parseCsv(res.body.slice(1))
      .slice(1)
      .map((r) => r[0]);
    expect(ids).toHaveLength(total);
    expect(new Set(ids).size).toBe(total);
  });
});
