import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDealer, createHarness, type Harness, signInAdmin, signInDealer } from './helpers';
import { postWebhook, WEBHOOK_SECRET } from './partner-fixtures';

// Issue 36 (decision 0995): the orders webhook's status screen, owners only, the secret never shown.

let h: Harness;
let owner: string;
let reviewer: string;
let dealerCookie: string;
let dealerId: string;
beforeAll(async () => {
  h = await createHarness({
    config: { ordersWebhookSecret: WEBHOOK_SECRET, publicUrl: 'https://dealers.example.com' },
  });
  owner = await signInAdmin(h.app, 'hook-owner');
  await signInAdmin(h.app, 'hook-reviewer');
  await h.db.updateTable('admins').set({ role: 'reviewer' }).where('username', '=', 'hook-reviewer').execute();
  reviewer = await signInAdmin(h.app, 'hook-reviewer');
  const d = await createDealer(h.db, { status: 'approved' });
  dealerId = d.id;
  dealerCookie = await signInDealer(h.app, d.email);
});
afterAll(async () => {
  await h?.close();
});

const status = (cookie?: string) =>
  h.app.inject({ url: '/api/admin/integrations/orders-webhook', headers: cookie ? { cookie } : {} });

describe('GET /api/admin/integrations/orders-webhook', () => {
  it('shows the URL, that a secret is set (never the secret), and each delivery with its answer, newest first', async () => {
    const order = { orderId: 'HOOK-1', dealerId, amount: '100.00', orderedAt: new Date().toISOString() };
    expect((await postWebhook(h, order, { id: 'msg_ok_1' })).statusCode).toBe(200);
    expect((await postWebhook(h, order, { id: 'msg_again_2' })).statusCode).toBe(200);
    const forged = `whsec_${Buffer.from('not-the-secret-0123456789abcdef').toString('base64')}`;
    expect((await postWebhook(h, order, { id: 'msg_forged_3', secret: forged })).statusCode).toBe(401);
    expect(
      (
        await postWebhook(
          h,
          { ...order, dealerId: undefined, dealerEmail: 'nobody@example.com' },
          { id: 'msg_nobody_4' },
        )
      ).statusCode,
    ).toBe(404);

    const res = await status(owner);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({ url: 'https://dealers.example.com/api/integrations/orders', secretSet: true });
    expect(res.body).not.toContain(WEBHOOK_SECRET);
    expect(res.body).not.toContain(WEBHOOK_SECRET.slice(6, 26));
    expect(body.deliveries.map((d: { webhookId: string; statusCode: number }) => [d.webhookId, d.statusCode])).toEqual([
      ['msg_nobody_4', 404],
      ['msg_forged_3', 401],
      ['msg_again_2', 200],
      ['msg_ok_1', 200],
    ]);
    expect(body.deliveries[3]).toMatchObject({ result: 'Recorded', orderId: 'HOOK-1' });
    expect(body.deliveries[2]).toMatchObject({ result: 'Already recorded (no change)' });
    expect(body.deliveries[1].result).toMatch(/signature/i);
  });

  it('keeps only the newest 200 deliveries', async () => {
    const { sql } = await import('@dn/db');
    await sql`insert into webhook_deliveries (status_code, result) select 401, 'x' from generate_series(1, 250)`.execute(
      h.db,
    );
    await postWebhook(h, 'not json', { id: 'msg_last' });
    const n = await h.db
      .selectFrom('webhookDeliveries')
      .select((e) => e.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(n.n)).toBe(200);
    expect((await status(owner)).json().deliveries[0]).toMatchObject({ webhookId: 'msg_last', statusCode: 400 });
  });

  it('owners only: 401 signed out, 403 for a dealer and a reviewer', async () => {
    expect((await status()).statusCode).toBe(401);
    expect((await status(dealerCookie)).statusCode).toBe(403);
    expect((await status(reviewer)).statusCode).toBe(403);
  });
});
