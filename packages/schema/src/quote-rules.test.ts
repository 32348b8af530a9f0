import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fieldErrorsOf } from './common';
import { quoteRequestInput } from './jobs';
import { quoteRequestErrors } from './quote-rules';

/** The zod schema's first message per field, as the server sends them (the honeypot and recruiter left out). */
function zodErrors(input: Record<string, unknown>) {
  const r = quoteRequestInput.safeParse(input);
  if (r.success) return {};
  const { website: _w, recruiterId: _r, ...rest } = fieldErrorsOf(r.error);
  return rest;
}

const valid = {
  fullName: 'Pat Homeowner',
  email: 'pat@example.com',
  phone: '512-555-0100',
  street: '1 Main St',
  city: 'Austin',
  state: 'TX',
  zipCode: '78701',
  consent: true,
};

describe('quoteRequestErrors (the light /quote page, decision 1160)', () => {
  const cases: Record<string, unknown>[] = [
    valid,
    {},
    { ...valid, consent: false },
    { ...valid, fullName: '   ', email: '', phone: '', street: '', city: '', state: '', zipCode: '' },
    { ...valid, fullName: 'x'.repeat(121), street: 'x'.repeat(201), city: 'x'.repeat(101) },
    { ...valid, email: 'not-an-email', phone: '12345', zipCode: '7870' },
    { ...valid, email: ` ${'a'.repeat(250)}@example.com`, phone: '+44 20 7946 0958 ext 1234567890' },
    { ...valid, phone: 'abcdefghijkl', state: 'Texas', zipCode: '78701-12' },
    { ...valid, state: 'tx', zipCode: '78701-1234', email: 'PAT@Example.COM' },
    { ...valid, state: 'ZZ' },
    { ...valid, atticSqFt: 49, fans: 51 },
    { ...valid, atticSqFt: 100_001, fans: -1 },
    { ...valid, atticSqFt: 1200.5, fans: Number.NaN },
    { ...valid, atticSqFt: 50, fans: 0, notes: '  ' },
    { ...valid, notes: 'n'.repeat(2_001) },
    { ...valid, notes: ` ${'n'.repeat(2_000)} ` },
  ];
  it.each(cases.map((c, i) => [i, c] as const))('case %i gives the schema messages', (_i, input) => {
    expect(quoteRequestErrors(input)).toEqual(zodErrors(input));
  });

  it('agrees with the schema on any typed values', () => {
    const typed = fc.oneof(fc.string({ maxLength: 40 }), fc.constantFrom('', ' ', 'TX', 'tx', '78701', '5125550100'));
    fc.assert(
      fc.property(
        fc.record({
          fullName: typed,
          email: fc.oneof(typed, fc.emailAddress()),
          phone: typed,
          street: typed,
          city: typed,
          state: typed,
          zipCode: typed,
          atticSqFt: fc.option(fc.oneof(fc.integer({ min: -10, max: 200_000 }), fc.double()), { nil: undefined }),
          fans: fc.option(fc.integer({ min: -5, max: 60 }), { nil: undefined }),
          notes: fc.option(typed, { nil: undefined }),
          consent: fc.boolean(),
        }),
        (input) => {
          const clean = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
          expect(quoteRequestErrors(clean)).toEqual(zodErrors(clean));
        },
      ),
      { numRuns: 400 },
    );
  });
});
