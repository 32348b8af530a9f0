import { describe, expect, it } from 'vitest';
import {
  createAffiliateLink,
  dealerApplication,
  extractVimeoPlayerUrl,
  fieldErrorsOf,
  normalizeFormUrl,
  scheduleCall,
  setupPasswordForm,
  todayIn,
  toE164,
  updateFirstOrderForm,
  withoutEmbeddedFlag,
} from './index';
import { signAgreementInput } from './onboarding';

import { TEST_APPLICATION } from './test-application';

// Email and phone as typed, to be normalised.
const base = { ...TEST_APPLICATION, email: '  Jane@Example.COM ', phoneE164: '(555) 123-4567' };

function errors(input: unknown) {
  const r = dealerApplication.safeParse(input);
  return r.success ? {} : fieldErrorsOf(r.error);
}

describe('dealerApplication', () => {
  it('normalises email, phone and country, and drops "No referral"', () => {
    const d = dealerApplication.parse(base);
    expect(d.email).toBe('jane@example.com');
    expect(d.phoneE164).toBe('+15551234567');
    expect(d.addressJson.country).toBe('US');
    expect(d.referredBy).toBeUndefined();
    expect(d.salesReps).toBe(0);
  });

  it('uses the spec messages for empty required fields', () => {
    expect(errors({ addressJson: {} })).toMatchObject({
      fullName: 'Full name is required',
      email: 'Email required',
      phoneE164: 'Phone required',
      'addressJson.street': 'Street address is required',
      'addressJson.city': 'City is required',
      'addressJson.state': 'State required',
      'addressJson.zipCode': 'ZIP code is required',
    });
  });

  it('checks lengths and formats', () => {
    const e = errors({
      ...base,
      fullName: 'J',
      email: 'nope',
      phoneE164: '12345',
      addressJson: { ...base.addressJson, state: 'T', zipCode: '123' },
    });
    expect(e).toMatchObject({
      fullName: 'Full name is required',
      email: 'Valid email is required',
      phoneE164: 'Valid phone number is required',
      'addressJson.state': 'State required',
      'addressJson.zipCode': 'ZIP code is required',
    });
  });

  it('asks how the applicant was referred unless a recruiter id is known', () => {
    expect(errors({ ...base, referredBy: undefined }).referredBy).toBe('Please select how you were referred');
    expect(errors({ ...base, referredBy: 'x' }).referredBy).toBe('Please select how you were referred');
    expect(errors({ ...base, referredBy: undefined, recruiterId: 'jane_01' }).referredBy).toBeUndefined();
    // an invalid recruiter id is ignored, so the question is asked again
    expect(errors({ ...base, referredBy: undefined, recruiterId: 'x!' }).referredBy).toBeDefined();
  });

  it('requires the installer questions for Authorized and Preferred only', () => {
    expect(errors({ ...base, tier: 'Authorized' })).toMatchObject({
      entityType: 'Business entity type is required',
      salesReps: 'Number of sales representatives is required',
      monthlyVolume: 'Expected monthly volume is required',
    });
    expect(errors({ ...base, tier: 'Preferred', entityType: 'LLC', salesReps: 0, monthlyVolume: 0 })).toMatchObject({
      salesReps: 'At least 1 sales representative is required',
      monthlyVolume: 'Monthly volume must be greater than 0',
    });
    expect(errors(base)).toEqual({});
  });

  it('requires the onboarding call agreement', () => {
    expect(errors({ ...base, onboardingCallOk: false }).onboardingCallOk).toBe(
      'You must agree to participate in the onboarding call',
    );
  });

  it('drops the fields of other tiers', () => {
    const d = dealerApplication.parse({
      ...base,
      licensedInstallers: true,
      crewCount: 4,
      permittingCapable: true,
      status: 'approved',
      accessGranted: true,
    });
    expect(d.licensedInstallers).toBe(false);
    expect(d.crewCount).toBe(0);
    expect(d.permittingCapable).toBe(false);
    expect(d).not.toHaveProperty('status');
    expect(d).not.toHaveProperty('accessGranted');
  });
});

describe('phone numbers', () => {
  it('normalises to E.164', () => {
    expect(toE164('555-123-4567')).toBe('+15551234567');
    expect(toE164('1 555 123 4567')).toBe('+15551234567');
    expect(toE164('+44 20 7946 0958')).toBe('+442079460958');
    expect(toE164('12345')).toBeNull();
  });
});

describe('scheduleCall', () => {
  const today = todayIn('America/New_York');
  it('accepts today and defaults to morning', () => {
    const c = scheduleCall.parse({ name: 'A', email: 'a@b.co', phone: '5551234567', preferredDate: today });
    expect(c.preferredTime).toBe('morning');
  });
  it('refuses past and malformed dates', () => {
    const r = scheduleCall.safeParse({ name: 'A', email: 'a@b.co', phone: '5551234567', preferredDate: '2000-01-01' });
    expect(r.success || fieldErrorsOf(r.error).preferredDate).toBe('Preferred date cannot be in the past');
    const e = scheduleCall.safeParse({ name: 'A', email: 'a@b.co', phone: '5551234567', preferredDate: '' });
    expect(e.success || fieldErrorsOf(e.error).preferredDate).toBe('Preferred date is required');
    const m = scheduleCall.safeParse({ name: 'A', email: 'a@b.co', phone: '5551234567', preferredDate: '2030-02-31' });
    expect(m.success).toBe(false);
  });
});

describe('passwords', () => {
  it('require a match', () => {
    const r = setupPasswordForm.safeParse({ token: 't', password: 'secret1', confirmPassword: 'secret2' });
    expect(r.success || fieldErrorsOf(r.error).confirmPassword).toBe("Passwords don't match");
  });
});

describe('affiliate link', () => {
  it('uses the recruiter id rule', () => {
    expect(createAffiliateLink.safeParse({ recruiterId: '  ' }).error?.issues[0]?.message).toBe(
      'Recruiter ID is required',
    );
    expect(createAffiliateLink.safeParse({ recruiterId: 'a b' }).success).toBe(false);
    expect(createAffiliateLink.parse({ recruiterId: ' jane-01 ' }).recruiterId).toBe('jane-01');
  });
});

describe('first order form URLs', () => {
  it('adds embedded=true once', () => {
    expect(normalizeFormUrl(' https://docs.google.com/forms/d/e/x/viewform ')).toBe(
      'https://docs.google.com/forms/d/e/x/viewform?embedded=true',
    );
    expect(normalizeFormUrl('https://docs.google.com/forms/d/e/x/viewform?usp=sf')).toBe(
      'https://docs.google.com/forms/d/e/x/viewform?usp=sf&embedded=true',
    );
    expect(normalizeFormUrl('https://forms.gle/abc?embedded=true')).toBe('https://forms.gle/abc?embedded=true');
  });
  it('removes the flag for the new-tab link', () => {
    expect(withoutEmbeddedFlag('https://x.test/f?embedded=true')).toBe('https://x.test/f');
    expect(withoutEmbeddedFlag('https://x.test/f?usp=sf&embedded=true')).toBe('https://x.test/f?usp=sf');
    expect(withoutEmbeddedFlag('https://x.test/f?embedded=true&usp=sf')).toBe('https://x.test/f?usp=sf');
  });
  it('accepts only https Google Forms', () => {
    expect(
      updateFirstOrderForm.safeParse({ tier: 'Affiliate', formUrl: 'http://docs.google.com/forms/x' }).success,
    ).toBe(false);
    expect(updateFirstOrderForm.safeParse({ tier: 'Affiliate', formUrl: 'https://evil.test/forms/x' }).success).toBe(
      false,
    );
    expect(updateFirstOrderForm.parse({ tier: 'Affiliate', formUrl: '' }).formUrl).toBe('');
  });
});

describe('extractVimeoPlayerUrl', () => {
  it('keeps only the id and hash of an embed code', () => {
    expect(
      extractVimeoPlayerUrl(
        '<iframe src="https://player.vimeo.com/video/123456?h=abcdef1234&amp;badge=0" onload="alert(1)"></iframe><script>alert(1)</script>',
      ),
    ).toBe('https://player.vimeo.com/video/123456?h=abcdef1234&dnt=1');
    expect(extractVimeoPlayerUrl('https://vimeo.com/76979871')).toBe('https://player.vimeo.com/video/76979871?dnt=1');
  });
  it('refuses anything else', () => {
    expect(extractVimeoPlayerUrl('<img src=x onerror=alert(1)>')).toBeNull();
    expect(extractVimeoPlayerUrl('https://evil.test/player.vimeo.com/video/1')).toBeNull();
    expect(extractVimeoPlayerUrl('javascript:alert(1)')).toBeNull();
    expect(extractVimeoPlayerUrl('')).toBeNull();
  });
});

describe('signAgreementInput', () => {
  it('refuses a signature with a line break or control character, naming the rule', () => {
    const sign = (signatureName: string) => signAgreementInput.safeParse({ version: 1, signatureName, accept: true });
    expect(sign('Jane Doe').success).toBe(true);
    for (const name of ['Jane\nDoe', 'Jane\u0000Doe', 'Jane\u2028Doe', 'Jane\u009bDoe']) {
      const r = sign(name);
      expect(r.success).toBe(false);
      expect(r.error?.issues[0]?.message).toMatch(/no line breaks or control characters/);
    }
  });
});
