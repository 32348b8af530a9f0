import { installerGateOk } from '@dn/db/queries/agreements';
import { CALL_TIME_ZONE, todayIn } from '@dn/schema';
import { describe, expect, it } from 'vitest';
import { onboardingDigestSections } from '../src/services/onboarding/digest';
import { mailHarnessForFile } from './helpers';
import { adminAs, approvedDealer, plusDays, uploadDocument } from './onboarding-fixtures';

const h = mailHarnessForFile();

const get = (url: string, cookie?: string) =>
  h.app.inject({ method: 'GET', url, ...(cookie ? { headers: { cookie } } : {}) });
const send = (method: 'POST' | 'PUT', url: string, payload: object, cookie?: string) =>
  h.app.inject({ method, url, payload, headers: { ...(cookie ? { cookie } : {}), 'user-agent': 'vitest-agent/1.0' } });
const sign = (cookie: string | undefined, version: number, signatureName: string, accept = true) =>
  send('POST', '/api/dealer/agreement/sign', { version, signatureName, accept }, cookie);
const signaturesOf = (dealerId: string) =>
  h.db.selectFrom('agreementSignatures').selectAll().where('dealerId', '=', dealerId).orderBy('version').execute();

describe('the dealer agreement', () => {
  it('is read, signed (typed name, case and spacing aside), emailed as a PDF and downloadable', async () => {
    const d = await approvedDealer(h, 'Authorized', { fullName: 'Jane Q Dealer' });
    const read = await get('/api/dealer/agreement', d.cookie);
    expect(read.statusCode).toBe(200);
    const agreement = read.json();
    expect(agreement).toMatchObject({ tier: 'Authorized', version: 1 });
    expect(agreement.text).toContain('# Authorized Dealer Agreement');
    expect(agreement.signedVersion).toBeUndefined();

    const res = await sign(d.cookie, 1, '  jane   q DEALER ');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ ok: true, version: 1 });
    const [sig] = await signaturesOf(d.id);
    const { createHash } = await import('node:crypto');
    expect(sig).toMatchObject({
      tier: 'Authorized',
      version: 1,
      signatureName: 'jane q DEALER',
      userAgent: 'vitest-agent/1.0',
      textSha256: createHash('sha256').update(agreement.text).digest('hex'),
    });
    expect(sig?.ipAddress).toBeTruthy();
    expect((await get('/api/dealer/agreement', d.cookie)).json().signedVersion).toBe(1);

    // Signing twice (a double click) answers with the first signature and stores nothing more.
    const again = await sign(d.cookie, 1, 'Jane Q Dealer');
    expect(again.statusCode).toBe(200);
    expect(again.json().id).toBe(sig?.id);
    expect(await signaturesOf(d.id)).toHaveLength(1);

    await h.app.deps.mail.flush();
    const mail = await h.smtp.waitFor(d.email, /signed Authorized Dealer Agreement/);
    const pdf = mail.attachments.find((a) => a.contentType === 'application/pdf');
    expect(pdf?.filename).toBe('dealer-agreement-authorized-v1.pdf');
    expect(pdf?.content.startsWith('%PDF-')).toBe(true);

    const own = await get('/api/dealer/agreement/pdf', d.cookie);
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('application/pdf');
    expect(own.rawPayload.subarray(0, 5).toString()).toBe('%PDF-');
    const reviewer = await adminAs(h.app, 'reviewer');
    const adminPdf = await get(`/api/admin/dealers/${d.id}/agreement/pdf`, reviewer);
    expect(adminPdf.statusCode).toBe(200);
    expect(adminPdf.headers['content-disposition']).toContain('dealer-agreement-authorized-v1.pdf');
    expect((await get(`/api/admin/dealers/${d.id}/agreement/pdf`, await adminAs(h.app, 'viewer'))).statusCode).toBe(
      403,
    );
    expect((await get('/api/dealer/agreement/pdf')).statusCode).toBe(401);

    // Nothing about a signature can be changed afterwards.
    await expect(
      h.db
        .updateTable('agreementSignatures')
        .set({ signatureName: 'Someone Else' })
        .where('dealerId', '=', d.id)
        .execute(),
    ).rejects.toThrow(/cannot be changed/);
  });

  it('refuses a name that is not the dealer’s, a box not ticked, and an old version; nothing stored', async () => {
    const d = await approvedDealer(h, 'Affiliate', { fullName: 'Sam Signer' });
    const wrong = await sign(d.cookie, 1, 'Sam Singer');
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fieldErrors).toHaveProperty('signatureName');
    const unticked = await sign(d.cookie, 1, 'Sam Signer', false);
    expect(unticked.statusCode).toBe(400);
    expect(unticked.json().fieldErrors).toHaveProperty('accept');
    const old = await sign(d.cookie, 99, 'Sam Signer');
    expect(old.statusCode).toBe(409);
    expect(await signaturesOf(d.id)).toHaveLength(0);
    expect((await sign(undefined, 1, 'Sam Signer')).statusCode).toBe(401);
    expect((await get('/api/dealer/agreement', await adminAs(h.app, 'owner'))).statusCode).toBe(403);
  });

  it('a new version is the owner’s, asks the tier to sign again, and keeps both signatures', async () => {
    const d = await approvedDealer(h, 'Preferred', { fullName: 'Pat Preferred' });
    const other = await approvedDealer(h, 'Authorized', { fullName: 'Al Other' });
    const v1 = (await get('/api/dealer/agreement', d.cookie)).json().version as number;
    expect((await sign(d.cookie, v1, 'Pat Preferred')).statusCode).toBe(200);

    const owner = await adminAs(h.app, 'owner');
    const reviewer = await adminAs(h.app, 'reviewer');
    expect((await send('PUT', '/api/admin/agreements/Preferred', { text: '# New terms' }, reviewer)).statusCode).toBe(
      403,
    );
    expect((await send('PUT', '/api/admin/agreements/Preferred', { text: '# New terms' }, d.cookie)).statusCode).toBe(
      403,
    );
    expect((await send('PUT', '/api/admin/agreements/Preferred', { text: '# New terms' })).statusCode).toBe(401);
    const blank = await send('PUT', '/api/admin/agreements/Preferred', { text: '   ' }, owner);
    expect(blank.statusCode).toBe(400);
    expect(blank.json().fieldErrors).toHaveProperty('text');
    expect((await send('PUT', '/api/admin/agreements/Gold', { text: '# x' }, owner)).statusCode).toBe(400);
    expect((await get('/api/dealer/agreement', d.cookie)).json().version).toBe(v1);

    const put = await send(
      'PUT',
      '/api/admin/agreements/Preferred',
      { text: '# Preferred Dealer Agreement\n\nVersion two.' },
      owner,
    );
    expect(put.statusCode).toBe(200);
    expect(put.json()).toMatchObject({ tier: 'Preferred', version: v1 + 1 });
    expect(put.json().notified).toBeGreaterThanOrEqual(1);

    const now = await get('/api/dealer/agreement', d.cookie);
    expect(now.json()).toMatchObject({ version: v1 + 1, signedVersion: v1 });
    expect((await get('/api/dealer/agreement', other.cookie)).json().version).toBe(1); // another tier: unchanged
    const stale = await sign(d.cookie, v1, 'Pat Preferred');
    expect(stale.statusCode).toBe(409);
    const step = (await get('/api/dealer/onboarding', d.cookie)).json().steps[0];
    expect(step).toMatchObject({ key: 'agreement', done: false, signedVersion: v1, version: v1 + 1 });

    await h.app.deps.mail.flush();
    await h.smtp.waitFor(d.email, /sign the updated Preferred Dealer Agreement/);

    expect((await sign(d.cookie, v1 + 1, 'pat preferred')).statusCode).toBe(200);
    const kept = await signaturesOf(d.id);
    expect(kept.map((s) => s.version)).toEqual([v1, v1 + 1]);
    expect(kept[0]?.textSha256).not.toBe(kept[1]?.textSha256);
    const old = await get(`/api/dealer/agreement/pdf?signature=${kept[0]?.id}`, d.cookie);
    expect(old.headers['content-disposition']).toContain(`-v${v1}.pdf`);
    const detail = await get(`/api/admin/dealers/${d.id}/onboarding`, reviewer);
    expect(detail.json().signatures).toHaveLength(2);
  });
});

describe('installer_gate_ok', () => {
  it('is true only with the current agreement signed and VERIFIED insurance and licence valid on the day', async () => {
    const d = await approvedDealer(h, 'Authorized', { fullName: 'Gate Keeper' });
    const today = todayIn(CALL_TIME_ZONE);
    const gate = (on: string) => installerGateOk(h.db, d.id, on);
    expect(await gate(today)).toBe(false); // nothing on file

    // Issue 45: uploaded certificates count once a reviewer has verified them.
    const reviewer = await adminAs(h.app, 'reviewer');
    const insurance = await uploadDocument(h.app, d.cookie, { kind: 'insurance', expiresOn: plusDays(today, 10) });
    const licence = await uploadDocument(h.app, d.cookie, { kind: 'licence', expiresOn: plusDays(today, 20) });
    expect([insurance.statusCode, licence.statusCode]).toEqual([201, 201]);
    const version0 = (await get('/api/dealer/agreement', d.cookie)).json().version as number;
    await sign(d.cookie, version0, 'Gate Keeper');
    expect(await gate(today)).toBe(false); // signed, documents not yet verified
    for (const doc of [insurance, licence]) {
      const res = await send('POST', `/api/admin/compliance/documents/${doc.json().id}/verify`, {}, reviewer);
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(await gate(today)).toBe(true);
    await h.db.deleteFrom('agreementSignatures').where('dealerId', '=', d.id).execute();
    expect(await gate(today)).toBe(false); // not signed
    const version = (await get('/api/dealer/agreement', d.cookie)).json().version as number;
    await sign(d.cookie, version, 'Gate Keeper');
    expect(await gate(today)).toBe(true);
    expect(await gate(plusDays(today, 10))).toBe(true); // the last day of cover
    expect(await gate(plusDays(today, 11))).toBe(false); // insurance expired
    expect(await gate(plusDays(today, 21))).toBe(false); // both expired

    // A superseded agreement closes the gate until the new version is signed.
    const owner = await adminAs(h.app, 'owner');
    await send('PUT', '/api/admin/agreements/Authorized', { text: `# Authorized v-next ${Date.now()}` }, owner);
    expect(await gate(today)).toBe(false);
    const next = (await get('/api/dealer/agreement', d.cookie)).json().version as number;
    await sign(d.cookie, next, 'Gate Keeper');
    expect(await gate(today)).toBe(true);
    expect(await installerGateOk(h.db, '00000000-0000-4000-8000-000000000000', today)).toBe(false);
  });
});

describe('the digest’s onboarding sections', () => {
  it('name the overdue onboardings and the documents expiring within 30 days', async () => {
    // After the gate test: Gate Keeper's verified insurance (10 days) and licence (20 days).
    await approvedDealer(h, 'Affiliate', {
      fullName: 'Late Digest',
      approvedAt: new Date(Date.now() - 30 * 86_400_000),
    });
    const today = todayIn(CALL_TIME_ZONE);
    const digest = await onboardingDigestSections(h.app.deps);
    expect(digest.overdueOnboarding.map((d) => d.fullName)).toEqual(['Late Digest']);
    expect(digest.expiringDocuments.map((d) => [d.fullName, d.document, d.expiresOn])).toEqual([
      ['Gate Keeper', 'insurance', plusDays(today, 10)],
      ['Gate Keeper', 'license', plusDays(today, 20)],
    ]);
  });
});
