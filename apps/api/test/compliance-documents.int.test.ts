import { createHash } from 'node:crypto';
import { migrateTo, migrateToLatest, openDatabase, seed } from '@dn/db';
import { createEmptyPostgresDatabase, newDealer, testDbKind } from '@dn/db/testing';
import { CALL_TIME_ZONE, COMPLIANCE_MESSAGES, MAX_COMPLIANCE_FILE_BYTES, todayIn } from '@dn/schema';
import { afterAll, describe, expect, it } from 'vitest';
import { ShiftedClock } from '../src/lib/clock';
import { remindComplianceExpiries } from '../src/services/onboarding/sweeps';
import { mailHarnessForFile } from './helpers';
import { adminAs, approvedDealer, FILES, multipart, plusDays, uploadDocument } from './onboarding-fixtures';

/**
 * Compliance on evidence (issue 45, finding 2; decision 1010): the installer uploads its insurance
 * certificate or licence as a file (multipart, type read from the bytes, at most 10 MB, stored with
 * its SHA-256), an owner or reviewer opens and verifies or rejects it (once, whoever asks at the same
 * time), and only the verified, unexpired document completes the checklist's step and drives the
 * expiry reminders. The gate itself: jobs-gate.int.test.ts.
 */

const clock = new ShiftedClock();
const h = mailHarnessForFile({ clock });
const today = () => todayIn(CALL_TIME_ZONE, clock.now());
const inAYear = () => plusDays(today(), 365);

const get = (url: string, cookie?: string) =>
  h.app.inject({ method: 'GET', url, ...(cookie ? { headers: { cookie } } : {}) });
const post = (url: string, payload: object, cookie?: string) =>
  h.app.inject({ method: 'POST', url, payload, ...(cookie ? { headers: { cookie } } : {}) });
const verify = (id: string, cookie?: string) => post(`/api/admin/compliance/documents/${id}/verify`, {}, cookie);
const reject = (id: string, reason: string, cookie?: string) =>
  post(`/api/admin/compliance/documents/${id}/reject`, { reason }, cookie);
const documentsOf = (dealerId: string) =>
  h.db
    .selectFrom('complianceDocuments')
    .select(['id', 'kind', 'status', 'sha256', 'sizeBytes', 'contentType', 'fileName'])
    .where('dealerId', '=', dealerId)
    .execute();
const stepOf = async (cookie: string, key: 'insurance' | 'license') =>
  ((await get('/api/dealer/onboarding', cookie)).json().steps as { key: string }[]).find(
    (s) => s.key === key,
  ) as unknown as Record<string, unknown> & { documents: Record<string, unknown>[] };

describe('POST /api/dealer/compliance/documents', () => {
  it('stores a PDF, PNG or JPEG as a pending document with its SHA-256 and size (201); the step stays undone', async () => {
    const d = await approvedDealer(h, 'Authorized');
    const res = await uploadDocument(h.app, d.cookie, { expiresOn: inAYear() });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ kind: 'insurance', status: 'pending', expiresOn: inAYear() });
    expect(res.json().id).toMatch(/^[0-9a-f-]{36}$/);
    const [doc] = await documentsOf(d.id);
    expect(doc).toMatchObject({
      id: res.json().id,
      status: 'pending',
      contentType: 'application/pdf',
      sizeBytes: FILES.pdf.length,
      sha256: createHash('sha256').update(FILES.pdf).digest('hex'),
      fileName: 'certificate.pdf',
    });
    // The type is the bytes': a PNG named .pdf and sent as PDF is stored as the PNG it is.
    const png = await uploadDocument(h.app, d.cookie, {
      kind: 'licence',
      expiresOn: inAYear(),
      file: FILES.png,
      name: 'licence.pdf',
    });
    expect(png.statusCode, png.body).toBe(201);
    expect(png.json()).toMatchObject({ kind: 'licence', contentType: 'image/png' });
    const jpeg = await uploadDocument(h.app, d.cookie, {
      kind: 'licence',
      expiresOn: inAYear(),
      file: FILES.jpeg,
      name: '../../etc/ev<i>l.jpg',
      type: 'image/jpeg',
    });
    expect(jpeg.statusCode, jpeg.body).toBe(201);
    const stored = (await documentsOf(d.id)).find((x) => x.id === jpeg.json().id)!;
    expect(stored.fileName).toBe('ev_i_l.jpg');
    const step = await stepOf(d.cookie, 'insurance');
    expect(step).toMatchObject({ done: false, expired: false, expiresOn: null });
    expect(step.documents).toEqual([expect.objectContaining({ id: res.json().id, status: 'pending', hasFile: true })]);
  });

  it('refuses bad input with a clear 4xx and stores nothing: sniffed type, size, fields, dates, not multipart', async () => {
    const d = await approvedDealer(h, 'Preferred');
    const html = await uploadDocument(h.app, d.cookie, {
      expiresOn: inAYear(),
      file: FILES.html,
      name: 'certificate.pdf',
      type: 'application/pdf',
    });
    expect(html.statusCode).toBe(400);
    expect(html.json().message).toBe(COMPLIANCE_MESSAGES.fileType);
    const big = Buffer.concat([FILES.pdf, Buffer.alloc(MAX_COMPLIANCE_FILE_BYTES, 32)]);
    const tooBig = await uploadDocument(h.app, d.cookie, { expiresOn: inAYear(), file: big });
    expect(tooBig.statusCode).toBe(413);
    expect(tooBig.json().message).toBe(COMPLIANCE_MESSAGES.fileTooLarge);
    const exactly10 = Buffer.concat([FILES.pdf, Buffer.alloc(MAX_COMPLIANCE_FILE_BYTES - FILES.pdf.length, 32)]);
    const empty = await uploadDocument(h.app, d.cookie, { expiresOn: inAYear(), file: Buffer.alloc(0) });
    expect(empty.statusCode).toBe(400);
    const past = await uploadDocument(h.app, d.cookie, { expiresOn: plusDays(today(), -1) });
    expect(past.statusCode).toBe(400);
    expect(past.json().fieldErrors).toHaveProperty('expiresOn');
    const far = await uploadDocument(h.app, d.cookie, { expiresOn: plusDays(today(), 365 * 11) });
    expect(far.statusCode).toBe(400);
    const badDate = await uploadDocument(h.app, d.cookie, { expiresOn: '2027-02-30' });
    expect(badDate.statusCode).toBe(400);
    expect(badDate.json().fieldErrors).toHaveProperty('expiresOn');
    const badKind = await uploadDocument(h.app, d.cookie, { kind: 'passport', expiresOn: inAYear() });
    expect(badKind.statusCode).toBe(400);
    expect(badKind.json().fieldErrors).toHaveProperty('kind');
    const noFile = multipart({ kind: 'insurance', expiresOn: inAYear() });
    const withoutFile = await h.app.inject({
      method: 'POST',
      url: '/api/dealer/compliance/documents',
      payload: noFile.payload,
      headers: { ...noFile.headers, cookie: d.cookie },
    });
    expect(withoutFile.statusCode).toBe(400);
    expect(withoutFile.json().message).toBe(COMPLIANCE_MESSAGES.fileRequired);
    const json = await post('/api/dealer/compliance/documents', { kind: 'insurance', expiresOn: inAYear() }, d.cookie);
    expect(json.statusCode).toBe(400);
    expect(json.json().message).toBe(COMPLIANCE_MESSAGES.notMultipart);
    const truncated = multipart(
      { kind: 'insurance', expiresOn: inAYear() },
      {
        name: 'c.pdf',
        type: 'application/pdf',
        content: FILES.pdf,
      },
    );
    const cut = await h.app.inject({
      method: 'POST',
      url: '/api/dealer/compliance/documents',
      payload: truncated.payload.subarray(0, truncated.payload.length - 20),
      headers: { ...truncated.headers, cookie: d.cookie },
    });
    expect(cut.statusCode).toBe(400);
    expect(await documentsOf(d.id)).toEqual([]);
    // Exactly 10 MB is accepted.
    const ok = await uploadDocument(h.app, d.cookie, { expiresOn: inAYear(), file: exactly10 });
    expect(ok.statusCode, ok.body).toBe(201);
  });

  it('is for installer dealers only: 401 signed out, 403 for admins and Affiliates', async () => {
    expect((await uploadDocument(h.app, undefined, { expiresOn: inAYear() })).statusCode).toBe(401);
    expect((await uploadDocument(h.app, await adminAs(h.app, 'owner'), { expiresOn: inAYear() })).statusCode).toBe(403);
    const affiliate = await approvedDealer(h, 'Affiliate');
    expect((await uploadDocument(h.app, affiliate.cookie, { expiresOn: inAYear() })).statusCode).toBe(403);
    expect(await documentsOf(affiliate.id)).toEqual([]);
  });

  it('keeps at most 3 files of a kind waiting for review, also when 6 arrive at once', async () => {
    const d = await approvedDealer(h, 'Authorized');
    const answers = await Promise.all(
      Array.from({ length: 6 }, () => uploadDocument(h.app, d.cookie, { expiresOn: inAYear() })),
    );
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes).toEqual([201, 201, 201, 409, 409, 409]);
    expect((await documentsOf(d.id)).filter((x) => x.kind === 'insurance')).toHaveLength(3);
    // Another kind has its own budget.
    expect((await uploadDocument(h.app, d.cookie, { kind: 'licence', expiresOn: inAYear() })).statusCode).toBe(201);
  });
});

describe('downloads', () => {
  it('sends the file as an attachment, not sniffed, to its dealer and to reviewers and owners only', async () => {
    const d = await approvedDealer(h, 'Authorized');
    const other = await approvedDealer(h, 'Authorized');
    const up = await uploadDocument(h.app, d.cookie, { expiresOn: inAYear(), file: FILES.png, name: 'scan.png' });
    const id = up.json().id as string;
    const own = await get(`/api/dealer/compliance/documents/${id}/file`, d.cookie);
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('image/png');
    expect(own.headers['content-disposition']).toBe('attachment; filename="scan.png"');
    expect(own.headers['x-content-type-options']).toBe('nosniff');
    expect(own.headers['cache-control']).toContain('no-store');
    expect(own.rawPayload.equals(FILES.png)).toBe(true);
    for (const role of ['owner', 'reviewer'] as const) {
      const res = await get(`/api/admin/compliance/documents/${id}/file`, await adminAs(h.app, role));
      expect(res.statusCode).toBe(200);
      expect(res.rawPayload.equals(FILES.png)).toBe(true);
      expect(res.headers['content-disposition']).toMatch(/^attachment;/);
    }
    expect((await get(`/api/admin/compliance/documents/${id}/file`, await adminAs(h.app, 'viewer'))).statusCode).toBe(
      403,
    );
    expect((await get(`/api/dealer/compliance/documents/${id}/file`)).statusCode).toBe(401);
    expect((await get(`/api/admin/compliance/documents/${id}/file`)).statusCode).toBe(401);
    expect((await get(`/api/admin/compliance/documents/${id}/file`, d.cookie)).statusCode).toBe(403);
    // Another dealer cannot read it: told it does not exist, as for an unknown id.
    const theirs = await get(`/api/dealer/compliance/documents/${id}/file`, other.cookie);
    expect(theirs.statusCode).toBe(404);
    expect(theirs.body).not.toContain('PNG');
    expect((await get(`/api/dealer/compliance/documents/not-an-id/file`, d.cookie)).statusCode).toBe(400);
  });
});

describe('review: verify and reject', () => {
  it('a reviewer verifies once (409 after, one winner of parallel calls); the step is done and reminders follow the verified date', async () => {
    const d = await approvedDealer(h, 'Authorized', { fullName: 'Vera Verified' });
    const reviewer = await adminAs(h.app, 'reviewer');
    const up = await uploadDocument(h.app, d.cookie, { expiresOn: plusDays(today(), 20) });
    const id = up.json().id as string;
    const queue = await get('/api/admin/compliance/documents', reviewer);
    expect(queue.statusCode).toBe(200);
    expect(queue.json().documents).toEqual(
      expect.arrayContaining([expect.objectContaining({ id, dealerId: d.id, kind: 'insurance', hasFile: true })]),
    );
    const answers = await Promise.all([
      verify(id, reviewer),
      verify(id, reviewer),
      verify(id, await adminAs(h.app, 'owner')),
      reject(id, 'Blurry', reviewer),
    ]);
    const codes = answers.map((r) => r.statusCode).sort();
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(3);
    const winner = answers.find((r) => r.statusCode === 200)!.json();
    const [doc] = await documentsOf(d.id);
    expect(doc!.status).toBe(winner.status);
    const audits = await h.db
      .selectFrom('auditLogs')
      .select('eventType')
      .where('dealerId', '=', d.id)
      .where('eventType', 'in', ['compliance.document_verified', 'compliance.document_rejected'])
      .execute();
    expect(audits).toHaveLength(1);
    if (winner.status !== 'verified') return; // the reject won the race: its own test covers the rest
    expect((await verify(id, reviewer)).statusCode).toBe(409);
    expect(await stepOf(d.cookie, 'insurance')).toMatchObject({
      done: true,
      expired: false,
      expiresOn: plusDays(today(), 20),
    });
    expect((await get('/api/admin/compliance/documents', reviewer)).json().documents).not.toEqual(
      expect.arrayContaining([expect.objectContaining({ id })]),
    );
    // The expiry reminders read the verified document: 30 days before (it expires in 20).
    await remindComplianceExpiries(h.app.deps);
    const kinds = await h.db.selectFrom('emailOutbox').select('kind').where('dealerId', '=', d.id).execute();
    expect(kinds.map((k) => k.kind)).toContain('insurance_expiry_30');
    expect(kinds.map((k) => k.kind)).not.toContain('license_expiry_30');
  });

  it('rejects with a reason emailed to the dealer, shown on the checklist; the step stays undone', async () => {
    const d = await approvedDealer(h, 'Preferred', { fullName: 'Rex Rejected' });
    const owner = await adminAs(h.app, 'owner');
    const id = (await uploadDocument(h.app, d.cookie, { kind: 'licence', expiresOn: inAYear() })).json().id as string;
    const noReason = await reject(id, '  ', owner);
    expect(noReason.statusCode).toBe(400);
    expect(noReason.json().message).toBe(COMPLIANCE_MESSAGES.rejectReasonRequired);
    const res = await reject(id, 'The licence number is not readable <b>here</b>', owner);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ id, status: 'rejected' });
    const step = await stepOf(d.cookie, 'license');
    expect(step.done).toBe(false);
    expect(step.documents[0]).toMatchObject({
      id,
      status: 'rejected',
      rejectionReason: 'The licence number is not readable <b>here</b>',
    });
    await h.app.deps.mail.flush();
    const mail = await h.smtp.waitFor(d.email, /contractor licence was not accepted/);
    expect(mail.text).toContain('The licence number is not readable <b>here</b>');
    expect(mail.html).not.toContain('<b>here</b>');
    expect((await verify(id, owner)).statusCode).toBe(409);
  });

  it('refuses viewers, dealers and the signed-out; unknown ids are 404; bad ids 400', async () => {
    const d = await approvedDealer(h, 'Authorized');
    const id = (await uploadDocument(h.app, d.cookie, { expiresOn: inAYear() })).json().id as string;
    const viewer = await adminAs(h.app, 'viewer');
    expect((await verify(id)).statusCode).toBe(401);
    expect((await verify(id, d.cookie)).statusCode).toBe(403);
    expect((await verify(id, viewer)).statusCode).toBe(403);
    expect((await reject(id, 'No', viewer)).statusCode).toBe(403);
    expect((await get('/api/admin/compliance/documents', viewer)).statusCode).toBe(403);
    expect((await get('/api/admin/compliance/documents', d.cookie)).statusCode).toBe(403);
    expect((await get('/api/admin/compliance/documents')).statusCode).toBe(401);
    const owner = await adminAs(h.app, 'owner');
    expect((await verify('00000000-0000-4000-8000-000000000000', owner)).statusCode).toBe(404);
    expect((await verify('nope', owner)).statusCode).toBe(400);
    expect((await documentsOf(d.id))[0]!.status).toBe('pending');
  });

  it('a date typed before documents is a pending record without a file: listed, never verifiable, replaced by an upload', async () => {
    const d = await approvedDealer(h, 'Authorized');
    const owner = await adminAs(h.app, 'owner');
    const typed = await h.db
      .insertInto('complianceDocuments')
      .values({ dealerId: d.id, kind: 'insurance', expiresOn: inAYear(), note: 'Typed before documents' })
      .returning('id')
      .executeTakeFirstOrThrow();
    const v = await verify(typed.id, owner);
    expect(v.statusCode).toBe(409);
    expect(v.json().message).toBe(COMPLIANCE_MESSAGES.noFile);
    expect((await get(`/api/admin/compliance/documents/${typed.id}/file`, owner)).statusCode).toBe(404);
    expect((await stepOf(d.cookie, 'insurance')).documents[0]).toMatchObject({ id: typed.id, hasFile: false });
    expect((await uploadDocument(h.app, d.cookie, { expiresOn: inAYear() })).statusCode).toBe(201);
    const docs = await documentsOf(d.id);
    expect(docs).toHaveLength(1);
    expect(docs[0]!.id).not.toBe(typed.id);
  });

  it('an expired pending document cannot be verified', async () => {
    const d = await approvedDealer(h, 'Authorized');
    const id = (await uploadDocument(h.app, d.cookie, { expiresOn: today() })).json().id as string;
    const saved = clock.offsetMs;
    clock.advance(2 * 86_400_000);
    try {
      const res = await verify(id, await adminAs(h.app, 'owner'));
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe(COMPLIANCE_MESSAGES.expiredOnReview);
    } finally {
      clock.offsetMs = saved;
    }
  });
});

describe('migration 3100: typed dates become pending documents', () => {
  const cleanups: (() => Promise<unknown>)[] = [];
  afterAll(async () => {
    for (const c of cleanups) await c().catch(() => undefined);
  });

  it('turns each dealer_compliance row into a pending insurance and licence document without a file', async () => {
    let databaseUrl: string | undefined;
    if (testDbKind() === 'postgres') {
      const empty = await createEmptyPostgresDatabase();
      cleanups.push(empty.drop);
      databaseUrl = empty.url;
    }
    const database = await openDatabase({ databaseUrl, poolSize: 1 });
    try {
      await migrateTo(database.db, '2026-11-28-2900-routing-speed');
      await seed(database.db);
      const dealer = await database.db
        .insertInto('dealers')
        .values({ ...newDealer('typed.dates@example.com'), tier: 'Authorized', status: 'approved' })
        .returning('id')
        .executeTakeFirstOrThrow();
      await database.db
        .insertInto('dealerCompliance')
        .values({
          dealerId: dealer.id,
          insuranceCertUrl: 'https://certs.example.com/typed',
          insurer: 'Acme Mutual',
          insuranceExpiresOn: '2099-01-31',
          licenseNumber: 'TX-1',
          licenseState: 'TX',
          licenseExpiresOn: '2098-12-31',
        })
        .execute();
      await migrateToLatest(database.db);
      const docs = await database.db
        .selectFrom('complianceDocuments')
        .select(['kind', 'status', 'fileName', 'content', 'note'])
        .where('dealerId', '=', dealer.id)
        .orderBy('kind')
        .execute();
      expect(docs).toEqual([
        {
          kind: 'insurance',
          status: 'pending',
          fileName: null,
          content: null,
          note: 'Typed before documents were required: Acme Mutual, certificate https://certs.example.com/typed',
        },
        {
          kind: 'licence',
          status: 'pending',
          fileName: null,
          content: null,
          note: 'Typed before documents were required: licence TX-1 (TX)',
        },
      ]);
    } finally {
      await database.close();
    }
  });
});
