import { type APIRequestContext, expect } from '@playwright/test';
import { approvedDealer, INSTALLER_ANSWERS } from './accounts';
import { clockOffset } from './clock';

/** The e2e server's "now" (the real time plus the shared test clock's offset). */
export const serverNow = () => new Date(Date.now() + clockOffset());

/** YYYY-MM-DD of `at` in a time zone (the compliance form's "today" is Eastern). */
export const dayIn = (at: Date, timeZone: string) =>
  new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);

export const plusDays = (iso: string, n: number) => {
  const d = new Date(`${iso}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + n);
  return d.toISOString().slice(0, 10);
};

/** A small PDF: what a dealer's insurance certificate or licence is uploaded as in these tests. */
export const CERTIFICATE_PDF = Buffer.from(
  '%PDF-1.4\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Kids [] /Count 0 >> endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n',
);

/** Uploads a compliance document as the signed-in dealer (multipart, issue 45); returns its id. */
export async function uploadCertificate(signedIn: APIRequestContext, kind: 'insurance' | 'licence', expiresOn: string) {
  const res = await signedIn.post('/api/dealer/compliance/documents', {
    multipart: {
      kind,
      expiresOn,
      file: { name: `${kind}.pdf`, mimeType: 'application/pdf', buffer: CERTIFICATE_PDF },
    },
  });
  expect(res.status(), await res.text()).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

/** Verifies a document as the admin (the e2e owner, signed in by `approvedDealer`). */
export async function verifyDocument(admin: APIRequestContext, id: string) {
  const res = await admin.post(`/api/admin/compliance/documents/${id}/verify`, { data: {} });
  expect(res.ok(), await res.text()).toBe(true);
}

/**
 * An Authorized or Preferred installer who passes the job-offer gate (issue 38, installer_gate_ok)
 * the way a dealer does it: approved, signed the current agreement of the tier, its insurance
 * certificate and licence uploaded and verified by the owner (issue 45: only verified documents
 * count), then a service area around `zipCode`. `insurance: 'none'` leaves the insurance for the
 * test to upload. `signedIn` is left signed in as them.
 */
export async function readyInstaller(
  signedIn: APIRequestContext,
  admin: APIRequestContext,
  o: {
    tier: 'Authorized' | 'Preferred';
    zipCode: string;
    companyName?: string;
    fullName?: string;
    insuranceExpiresOn?: string;
    insurance?: 'verified' | 'none';
    /** Jobs a week, open offers included (decision 1125); the server's default when not given. */
    weeklyCapacity?: number;
  },
) {
  const fullName = o.fullName ?? `${o.tier} Installer`;
  const dealer = await approvedDealer(signedIn, admin, {
    tier: o.tier,
    fullName,
    companyName: o.companyName ?? `${o.tier} Attic Co`,
    ...INSTALLER_ANSWERS,
  });
  const agreement = await signedIn.get('/api/dealer/agreement');
  expect(agreement.ok(), await agreement.text()).toBe(true);
  const { version } = (await agreement.json()) as { version: number };
  const sign = await signedIn.post('/api/dealer/agreement/sign', {
    data: { version, signatureName: fullName, accept: true },
  });
  expect(sign.ok(), await sign.text()).toBe(true);
  const inAYear = plusDays(dayIn(serverNow(), 'America/New_York'), 365);
  await verifyDocument(admin, await uploadCertificate(signedIn, 'licence', inAYear));
  if (o.insurance !== 'none') {
    await verifyDocument(admin, await uploadCertificate(signedIn, 'insurance', o.insuranceExpiresOn ?? inAYear));
  }
  const area = await signedIn.put('/api/dealer/service-area', {
    data: {
      zipCode: o.zipCode,
      radiusMiles: 30,
      paused: false,
      ...(o.weeklyCapacity ? { weeklyCapacity: o.weeklyCapacity } : {}),
    },
  });
  expect(area.ok(), await area.text()).toBe(true);
  return dealer;
}
