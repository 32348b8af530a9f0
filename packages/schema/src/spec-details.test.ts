import { describe, expect, it } from 'vitest';
import {
  dealerApplication,
  fieldErrorsOf,
  PRODUCT_FOCUS_ACCEPTED,
  PRODUCT_FOCUS_AMBIGUOUS,
  RECRUITER_ID_MESSAGE,
  wizardClientErrors,
} from './index';
import { TEST_APPLICATION } from './test-application';

const base = TEST_APPLICATION;
const errors = (input: unknown) => {
  const r = dealerApplication.safeParse(input);
  return r.success ? {} : fieldErrorsOf(r.error);
};

describe('productVerticals (issue 15)', () => {
  it('takes unique plain names and stores them qualified, beside qualified values', () => {
    const d = dealerApplication.parse({ ...base, productVerticals: ['Wind', 'HVAC', 'Solar: Residential', 'Water'] });
    expect(d.productVerticals).toEqual([
      'Alternative Energy: Wind',
      'Energy Efficiency: HVAC',
      'Solar: Residential',
      'Healthy Food & Water: Water',
    ]);
  });

  it('a plain name and its qualified form are one focus', () => {
    expect(
      dealerApplication.parse({ ...base, productVerticals: ['Wind', 'Alternative Energy: Wind'] }).productVerticals,
    ).toEqual(['Alternative Energy: Wind']);
  });

  it('refuses a bare ambiguous name and lists its qualified choices', () => {
    const e = errors({ ...base, productVerticals: ['Residential'] });
    expect(e['productVerticals.0']).toBe(
      '"Residential" is in more than one category: send one of "Solar: Residential" or "Special Financing Services: Residential"',
    );
    expect(PRODUCT_FOCUS_AMBIGUOUS.Commercial).toEqual(['Solar: Commercial', 'Special Financing Services: Commercial']);
    expect(errors({ ...base, productVerticals: ['Not a thing'] })['productVerticals.0']).toBe('Unknown product focus');
  });

  it('accepts no ambiguous plain name', () => {
    for (const name of Object.keys(PRODUCT_FOCUS_AMBIGUOUS)) expect(PRODUCT_FOCUS_ACCEPTED).not.toContain(name);
  });
});

describe('recruiterId in a signup body (issue 15)', () => {
  it('a malformed id gets the spec message instead of being dropped', () => {
    expect(errors({ ...base, recruiterId: 'x!' }).recruiterId).toBe(RECRUITER_ID_MESSAGE);
    expect(errors({ ...base, recruiterId: 'a'.repeat(21) }).recruiterId).toBe(RECRUITER_ID_MESSAGE);
    expect(dealerApplication.parse({ ...base, recruiterId: ' jane_01 ' }).recruiterId).toBe('jane_01');
    expect(dealerApplication.parse({ ...base, recruiterId: '' }).recruiterId).toBeUndefined();
  });
});

describe('wizard client messages (SPEC section 5)', () => {
  it('words the client messages as the spec does, other messages unchanged', () => {
    const e = wizardClientErrors(
      errors({
        ...base,
        email: 'nope',
        phoneE164: '123',
        addressJson: { street: '', city: '', state: '', zipCode: '' },
      }),
    );
    expect(e).toMatchObject({
      email: 'Valid email required',
      phoneE164: 'Valid phone required',
      'addressJson.street': 'Street required',
      'addressJson.city': 'City required',
      'addressJson.state': 'State required',
      'addressJson.zipCode': 'ZIP required',
    });
    expect(wizardClientErrors({ fullName: 'Full name is required' })).toEqual({ fullName: 'Full name is required' });
  });
});
