import { createHash } from 'node:crypto';
import type { Harness, TestApp } from './helpers';
import { createDealer, signInAdmin, signInDealer } from './helpers';

/** An approved dealer of `tier`, approved at `approvedAt`, signed in. */
export async function approvedDealer(
  h: Harness,
  tier: 'Affiliate' | 'Authorized' | 'Preferred',
  opts: { fullName?: string; approvedAt?: Date } = {},
) {
  const d = await createDealer(h.db, { tier, fullName: opts.fullName ?? 'Jane Q Dealer' });
  await h.db
    .updateTable('dealers')
    .set({ approvalDate: opts.approvedAt ?? new Date() })
    .where('id', '=', d.id)
    .execute();
  return { ...d, cookie: await signInDealer(h.app, d.email) };
}

/** An admin of `role`, signed in. */
export async function adminAs(app: TestApp, role: 'owner' | 'reviewer' | 'viewer') {
  const username = `ob-${role}-${Math.random().toString(36).slice(2, 8)}`;
  const cookie = await signInAdmin(app, username);
  await app.deps.db.updateTable('admins').set({ role }).where('username', '=', username).execute();
  return cookie;
}

/** yyyy-mm-dd `days` after `from` (a calendar day). */
export const plusDays = (from: string, days: number) => {
  const d = new Date(`${from}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

/** The smallest files of each accepted type, and an HTML page (refused whatever it is called). */
export const FILES = {
  pdf: Buffer.from(
    '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
  ),
  png: Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
    'base64',
  ),
  jpeg: Buffer.from(
    '/9j/4AAQSkZJRgABAQEASABIAAD/2wBDAP//////////////////////////////////////////////////////////////////////////////////////wAALCAABAAEBAREA/8QAFAABAAAAAAAAAAAAAAAAAAAAA//EABQQAQAAAAAAAAAAAAAAAAAAAAD/2gAIAQEAAD8AN//Z',
    'base64',
  ),
  html: Buffer.from('<!doctype html><html><body><script>alert(1)</script></body></html>'),
} as const;

/** A multipart/form-data body of text fields and at most one file, for `app.inject`. */
export function multipart(
  fields: Record<string, string>,
  file?: { field?: string; name: string; type: string; content: Buffer },
) {
  const boundary = `----dn${Math.random().toString(36).slice(2)}`;
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    chunks.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  }
  if (file) {
    chunks.push(
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="${file.field ?? 'file'}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n`,
      ),
      file.content,
      Buffer.from('\r\n'),
    );
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

/** Uploads a compliance document as the dealer `cookie` (a PDF unless told). */
export function uploadDocument(
  app: TestApp,
  cookie: string | undefined,
  o: { kind?: string; expiresOn: string; file?: Buffer; name?: string; type?: string },
) {
  const body = multipart(
    { kind: o.kind ?? 'insurance', expiresOn: o.expiresOn },
    { name: o.name ?? 'certificate.pdf', type: o.type ?? 'application/pdf', content: o.file ?? FILES.pdf },
  );
  return app.inject({
    method: 'POST',
    url: '/api/dealer/compliance/documents',
    payload: body.payload,
    headers: { ...body.headers, ...(cookie ? { cookie } : {}) },
  });
}

/**
 * A compliance document written directly (the upload and review have their own tests): `verified`
 * unless told, with a small PDF.
 */
export async function complianceDocument(
  db: TestApp['deps']['db'],
  dealerId: string,
  kind: 'insurance' | 'licence',
  expiresOn: string,
  status: 'pending' | 'verified' | 'rejected' = 'verified',
) {
  const row = await db
    .insertInto('complianceDocuments')
    .values({
      dealerId,
      kind,
      status,
      expiresOn,
      fileName: 'certificate.pdf',
      contentType: 'application/pdf',
      content: FILES.pdf,
      sizeBytes: FILES.pdf.length,
      sha256: createHash('sha256').update(FILES.pdf).digest('hex'),
      rejectionReason: status === 'rejected' ? 'Unreadable' : null,
      reviewedBy: status === 'pending' ? null : 'fixture',
      reviewedAt: status === 'pending' ? null : new Date(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A verified insurance certificate and licence, as an installer passing the gate has. */
export async function verifiedCompliance(
  db: TestApp['deps']['db'],
  dealerId: string,
  o: { insuranceExpiresOn: string; licenceExpiresOn?: string },
) {
  await complianceDocument(db, dealerId, 'insurance', o.insuranceExpiresOn);
  await complianceDocument(db, dealerId, 'licence', o.licenceExpiresOn ?? o.insuranceExpiresOn);
}
