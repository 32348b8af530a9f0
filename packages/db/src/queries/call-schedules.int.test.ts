import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../testing';
import { insertCallSchedule, listCallSchedules, lockCallSchedule, updateCallStatus } from './call-schedules';

let t: TestDatabase;
beforeAll(async () => {
  t = await createTestDatabase();
});
afterAll(async () => {
  await t?.close();
});

const call = (
  email: string,
  preferredDate: string,
  preferredTime: 'morning' | 'afternoon' | 'evening' = 'morning',
  createdAt?: Date,
) =>
  insertCallSchedule(t.db, {
    createdAt,
    name: 'Caller',
    email,
    phone: '+15551234567',
    preferredDate,
    preferredTime,
    notes: null,
    updatedAt: new Date(),
  });

describe(`call-schedules queries on ${process.env.TEST_DB}`, () => {
  it('books a call as scheduled and refuses the same slot twice, whatever the email case', async () => {
    const row = await call('slot@calls.test', '2031-05-01');
    expect(row).toEqual({
      id: expect.any(String),
      name: 'Caller',
      email: 'slot@calls.test',
      phone: '+15551234567',
      preferredDate: '2031-05-01',
      preferredTime: 'morning',
      status: 'scheduled',
    });
    await expect(call('SLOT@calls.test', '2031-05-01')).rejects.toThrow(/unique/i);
    await call('slot@calls.test', '2031-05-01', 'evening');
  });

  it('lists scheduled calls soonest first, then the others newest first', async () => {
    const late = await call('late@calls.test', '2031-09-01');
    const soon = await call('soon@calls.test', '2031-02-01');
    // Booked a second apart: two inserts in a row can share a clock tick (seen on PGlite), and a tie
    // would leave "newest first" to chance.
    const done = await call('done@calls.test', '2031-03-01', 'morning', new Date(Date.now() - 2000));
    const dropped = await call('dropped@calls.test', '2031-04-01', 'morning', new Date(Date.now() - 1000));
    await updateCallStatus(t.db, done.id, 'completed');
    await updateCallStatus(t.db, dropped.id, 'cancelled');

    const ids = (await listCallSchedules(t.db)).map((c) => c.id);
    expect(ids.indexOf(soon.id)).toBeLessThan(ids.indexOf(late.id));
    expect(ids.indexOf(late.id)).toBeLessThan(ids.indexOf(dropped.id));
    expect(ids.indexOf(dropped.id)).toBeLessThan(ids.indexOf(done.id));
  });

  it('locks a call inside the transaction that changes it', async () => {
    const c = await call('lock@calls.test', '2031-06-01');
    const status = await t.db.transaction().execute(async (trx) => {
      const before = await lockCallSchedule(trx, c.id);
      await updateCallStatus(trx, c.id, 'completed');
      return before?.status;
    });
    expect(status).toBe('scheduled');
    expect((await lockCallSchedule(t.db, c.id))?.status).toBe('completed');
    expect(await lockCallSchedule(t.db, '00000000-0000-4000-8000-000000000000')).toBeUndefined();
  });
});
