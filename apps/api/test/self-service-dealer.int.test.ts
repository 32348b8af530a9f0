import { describe, expect, it } from 'vitest';
import { cookieOf, createDealer, mailHarnessForFile, signInAdmin, signInDealer, uniqueEmail } from './helpers';

// Issue 15: the dealer's own profile, password and sessions.
const h = mailHarnessForFile();

const profile = {
  companyName: 'Renamed Attic Co',
  phoneE164: '(512) 555-0199',
  addressJson: { street: '9 Oak Ave', city: 'Dallas', state: 'TX', zipCode: '75201' },
  logoUrl: 'https://example.com/logo.png',
  crmName: 'HubSpot',
};
const send = (
  method: 'GET' | 'PUT' | 'POST',
  url: string,
  cookie?: string,
  payload?: unknown,
  ua = 'Mozilla/5.0 (X11; Linux x86_64) Chrome/120.0',
) =>
  h.app.inject({
    method,
    url,
    payload: payload as object,
    headers: { ...(cookie ? { cookie } : {}), 'user-agent': ua },
  });

describe('profile', () => {
  it('a dealer edits their profile; stored normalised, audited on the admin timeline; email and tier untouched', async () => {
    const d = await createDealer(h.db, { email: uniqueEmail('profile'), tier: 'Authorized' });
    const cookie = await signInDealer(h.app, d.email);
    const res = await send('PUT', '/api/dealer/profile', cookie, {
      ...profile,
      email: 'evil@example.com',
      tier: 'Preferred',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().changed.sort()).toEqual(['addressJson', 'companyName', 'crmName', 'logoUrl', 'phoneE164']);
    const row = await h.db.selectFrom('dealers').selectAll().where('id', '=', d.id).executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      companyName: 'Renamed Attic Co',
      phoneE164: '+15125550199',
      email: d.email,
      tier: 'Authorized',
    });
    expect(row.addressJson).toMatchObject({ street: '9 Oak Ave', city: 'Dallas', country: 'US' });
    expect((await send('GET', '/api/dealer/profile', cookie)).json()).toMatchObject({
      companyName: 'Renamed Attic Co',
      crmName: 'HubSpot',
    });
    const admin = await signInAdmin(h.app);
    const timeline = await send('GET', `/api/admin/dealers/${d.id}/timeline`, admin);
    expect(timeline.statusCode).toBe(200);
    expect(timeline.body).toContain('dealer.profile_updated');
  });

  it('bad input gets the wizard messages and stores nothing; 401 signed out, 403 for an admin', async () => {
    const d = await createDealer(h.db, { email: uniqueEmail('profile-bad'), companyName: 'Keep Co' });
    const cookie = await signInDealer(h.app, d.email);
    const res = await send('PUT', '/api/dealer/profile', cookie, {
      ...profile,
      phoneE164: '123',
      addressJson: { street: '', city: '', state: 'T', zipCode: '1' },
      logoUrl: 'javascript:alert(1)',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().fieldErrors).toMatchObject({
      phoneE164: 'Valid phone number is required',
      'addressJson.street': 'Street address is required',
      'addressJson.city': 'City is required',
      'addressJson.state': 'State required',
      'addressJson.zipCode': 'ZIP code is required',
    });
    expect(res.json().fieldErrors.logoUrl).toBeDefined();
    const row = await h.db
      .selectFrom('dealers')
      .select(['companyName'])
      .where('id', '=', d.id)
      .executeTakeFirstOrThrow();
    expect(row.companyName).toBe('Keep Co');
    expect((await send('PUT', '/api/dealer/profile', undefined, profile)).statusCode).toBe(401);
    const admin = await signInAdmin(h.app);
    expect((await send('PUT', '/api/dealer/profile', admin, profile)).statusCode).toBe(403);
  });
});

describe('password and sessions', () => {
  it('needs the current password and the SPEC minimum; ends the other sessions; emails "password changed"', async () => {
    const d = await createDealer(h.db, { email: uniqueEmail('pw') });
    const here = await signInDealer(h.app, d.email);
    const other = await signInDealer(h.app, d.email);
    const list = (await send('GET', '/api/dealer/sessions', here)).json() as {
      device: string;
      current: boolean;
      lastSeenAt: string;
    }[];
    expect(list).toHaveLength(2);
    expect(list.filter((s) => s.current)).toHaveLength(1);
    expect(list[0]?.lastSeenAt).toBeTruthy();

    const wrong = await send('POST', '/api/dealer/password', here, {
      currentPassword: 'nope-nope',
      newPassword: 'brand-new-1',
    });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().fieldErrors.currentPassword).toBe('Current password is incorrect');
    const short = await send('POST', '/api/dealer/password', here, {
      currentPassword: d.password,
      newPassword: '12345',
    });
    expect(short.statusCode).toBe(400);
    expect(short.json().fieldErrors.newPassword).toBe('Password must be at least 8 characters long');
    expect((await send('GET', '/api/dealer/info', other)).statusCode).toBe(200);

    const ok = await send('POST', '/api/dealer/password', here, {
      currentPassword: d.password,
      newPassword: 'brand-new-1',
    });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual({ ok: true, otherSessionsEnded: 1 });
    expect((await send('GET', '/api/dealer/info', here)).statusCode).toBe(200);
    expect((await send('GET', '/api/dealer/info', other)).statusCode).toBe(401);
    await h.app.deps.mail.flush();
    const mail = await h.smtp.waitFor(d.email, /password/i);
    expect(mail.subject).toMatch(/password/i);
    await signInDealer(h.app, d.email, 'brand-new-1');
  });

  it('sign out everywhere ends every other session at once, not this one; 401 signed out', async () => {
    const d = await createDealer(h.db, { email: uniqueEmail('everywhere') });
    const here = cookieOf(
      await send('POST', '/api/dealer/login', undefined, { username: d.email, password: d.password }),
    );
    const others = [await signInDealer(h.app, d.email), await signInDealer(h.app, d.email)];
    const res = await send('POST', '/api/dealer/sessions/sign-out-others', here);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ ok: true, ended: 2 });
    for (const c of others) expect((await send('GET', '/api/dealer/info', c)).statusCode).toBe(401);
    expect((await send('GET', '/api/dealer/info', here)).statusCode).toBe(200);
    const list = (await send('GET', '/api/dealer/sessions', here)).json() as { device: string }[];
    expect(list).toHaveLength(1);
    expect(list[0]).toHaveProperty('device');
    expect((await send('POST', '/api/dealer/sessions/sign-out-others')).statusCode).toBe(401);
    expect((await send('GET', '/api/dealer/sessions')).statusCode).toBe(401);
  });

  it('each session is named by the device that signed in ("Firefox on Windows"), the user agent itself is not stored', async () => {
    const d = await createDealer(h.db, { email: uniqueEmail('device') });
    const firefox = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0';
    const safari =
      'Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1';
    const login = (ua: string) =>
      send('POST', '/api/dealer/login', undefined, { username: d.email, password: d.password }, ua);
    const here = cookieOf(await login(firefox));
    await login(safari);
    // A client that names no known browser or system (here inject's own "lightMyRequest").
    const script = await h.app.inject({
      method: 'POST',
      url: '/api/dealer/login',
      payload: { username: d.email, password: d.password },
    });
    expect(script.statusCode).toBe(200);
    const list = (await send('GET', '/api/dealer/sessions', here)).json() as { device: string; current: boolean }[];
    expect(list.map((s) => s.device).sort()).toEqual(['Firefox on Windows', 'Safari on iOS', 'Unknown device']);
    expect(list.find((s) => s.current)?.device).toBe('Firefox on Windows');
    const rows = await h.db.selectFrom('sessions').select('sess').execute();
    expect(JSON.stringify(rows)).not.toContain('Gecko/20100101');
  });
});
