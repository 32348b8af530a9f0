import { type APIRequestContext, request as playwrightRequest } from '@playwright/test';
import { ADMIN } from '../global-setup';
import { linkIn, waitForMail } from './mail';

let seq = 0;
export const uniqueEmail = (prefix: string) =>
  `${prefix}.${Date.now().toString(36)}${(++seq).toString(36)}@example.com`;

/** The answers an Authorized or Preferred application adds (business structure and operations). */
export const INSTALLER_ANSWERS = {
  entityType: 'LLC',
  licensedInstallers: true,
  crewCount: 3,
  insuranceCertUrl: 'https://example.com/cert.pdf',
  maintainInventory: true,
  salesReps: 2,
  monthlyVolume: 5000,
  crmName: 'HubSpot',
  permittingCapable: true,
  homePerformance: true,
};

/** The smallest valid dealer application (the wizard sends the same fields). */
export function application(email: string, over: Record<string, unknown> = {}) {
  // A phone and a street of its own: a referral sharing either with its recruiter is flagged as
  // self-referral and its commissions held (issue 35, finding 6).
  const n = String(1_000_000 + Math.floor(Math.random() * 9_000_000));
  return {
    tier: 'Affiliate',
    fullName: 'E2E Dealer',
    email,
    phoneE164: `(555) ${n.slice(0, 3)}-${n.slice(3)}`,
    addressJson: { street: `${n} Main St`, city: 'Austin', state: 'TX', zipCode: '78701' },
    referredBy: 'none',
    onboardingCallOk: true,
    ...over,
  };
}

/**
 * The referral picker's reference to the dealer with this company (issue 35: a signup names its
 * referrer by the typeahead's opaque reference, never by the dealer's id), as the wizard gets it.
 */
export async function referenceTo(request: APIRequestContext, companyName: string): Promise<string> {
  const res = await request.get(`/api/dealers/public?q=${encodeURIComponent(companyName)}`);
  if (!res.ok()) throw new Error(`typeahead failed: ${res.status()} ${await res.text()}`);
  const hit = ((await res.json()) as { ref: string; companyName: string | null }[]).find(
    (d) => d.companyName === companyName,
  );
  if (!hit) throw new Error(`no dealer of ${companyName} in the referral picker`);
  return hit.ref;
}

/** Applies through the public API (as the wizard does). */
export async function applyAsDealer(request: APIRequestContext, email: string, over: Record<string, unknown> = {}) {
  const res = await request.post('/api/dealer-signup', { data: application(email, over) });
  if (!res.ok()) throw new Error(`signup failed: ${res.status()} ${await res.text()}`);
}

/**
 * Signs in as the e2e admin (in the given request context, not the page's) and approves the
 * dealer with that email, which emails the set-password link. Returns the dealer's id.
 */
export async function approveAsAdmin(admin: APIRequestContext, email: string): Promise<string> {
  const login = await admin.post('/api/admin/login', { data: ADMIN });
  if (!login.ok()) throw new Error(`admin login failed: ${login.status()}`);
  const list = await admin.get(`/api/admin/dealers?q=${encodeURIComponent(email)}`);
  if (!list.ok()) throw new Error(`dealer list failed: ${list.status()} ${await list.text()}`);
  const { items } = (await list.json()) as { items: { id: string; email: string }[] };
  const dealer = items.find((d) => d.email === email);
  if (!dealer) throw new Error(`no dealer ${email} in the admin list`);
  const res = await admin.post(`/api/admin/dealers/${dealer.id}/approve`);
  if (!res.ok()) throw new Error(`approve failed: ${res.status()} ${await res.text()}`);
  return dealer.id;
}

/**
 * A dealer who applied, was approved by the admin, and set a password from the emailed link.
 * The set-up call goes through `signedIn` (a page's request context), so that page is signed in.
 */
export async function approvedDealer(
  signedIn: APIRequestContext,
  admin: APIRequestContext,
  over: Record<string, unknown> = {},
) {
  const email = uniqueEmail('dealer');
  await applyAsDealer(signedIn, email, over);
  const id = await approveAsAdmin(admin, email);
  const link = linkIn(await waitForMail(email, /approved/), '/login');
  const token = new URL(link).searchParams.get('token');
  const res = await signedIn.post('/api/dealer/setup-password', { data: { token, password: 'dealer-pass-1' } });
  if (!res.ok()) throw new Error(`setup-password failed: ${res.status()} ${await res.text()}`);
  return { id, email, password: 'dealer-pass-1' };
}

/**
 * An admin with `role`, made the way the product makes one: the e2e owner invites the address
 * (POST /api/admin/team/invitations) and the invitee accepts from the emailed one-time link
 * (POST /api/auth/accept-invite). Returns the credentials to sign in with (the username is the
 * invited email).
 */
export async function invitedAdmin(baseURL: string | undefined, role: 'owner' | 'reviewer' | 'viewer') {
  const email = uniqueEmail(role);
  const password = `${role}-password-1`;
  const owner = await playwrightRequest.newContext({ baseURL });
  const invitee = await playwrightRequest.newContext({ baseURL });
  try {
    const login = await owner.post('/api/admin/login', { data: ADMIN });
    if (!login.ok()) throw new Error(`owner login failed: ${login.status()}`);
    const invite = await owner.post('/api/admin/team/invitations', { data: { email, role } });
    if (!invite.ok()) throw new Error(`invitation failed: ${invite.status()} ${await invite.text()}`);
    const token = new URL(linkIn(await waitForMail(email, /invited/), '/admin/accept-invite')).searchParams.get(
      'token',
    );
    const accept = await invitee.post('/api/auth/accept-invite', {
      data: { token, fullName: `E2E ${role}`, password },
    });
    if (!accept.ok()) throw new Error(`accept-invite failed: ${accept.status()} ${await accept.text()}`);
    const { user } = (await accept.json()) as { user: { adminRole: string } };
    if (user.adminRole !== role) throw new Error(`the invited admin is ${user.adminRole}, not ${role}`);
    return { username: email, password };
  } finally {
    await owner.dispose();
    await invitee.dispose();
  }
}
