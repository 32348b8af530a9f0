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

/**
 * An Authorized or Preferred installer who passes the job-offer gate (issue 38, installer_gate_ok)
 * the way a dealer does it: approved, signed the current agreement of the tier, insurance and
 * licence on file, then a service area around `zipCode`. `signedIn` is left signed in as them.
 */
export async function readyInstaller(
  signedIn: APIRequestContext,
  admin: APIRequestContext,
  o: { tier: 'Authorized' | 'Preferred'; zipCode: string; companyName?: string; insuranceExpiresOn?: string },
) {
  const fullName = `${o.tier} Installer`;
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
  const compliance = await signedIn.put('/api/dealer/compliance', {
    data: {
      insuranceCertUrl: 'https://certs.example.com/e2e',
      insurer: 'Acme Mutual',
      insuranceExpiresOn: o.insuranceExpiresOn ?? inAYear,
      licenseNumber: 'TX-123456',
      licenseState: 'TX',
      licenseExpiresOn: inAYear,
    },
  });
  expect(compliance.ok(), await compliance.text()).toBe(true);
  const area = await signedIn.put('/api/dealer/service-area', {
    data: { zipCode: o.zipCode, radiusMiles: 30, paused: false },
  });
  expect(area.ok(), await area.text()).toBe(true);
  return dealer;
}
