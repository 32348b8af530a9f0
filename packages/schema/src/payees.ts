import { validate as abaChecksum } from 'abavalidator';
import { z } from 'zod';
import { CONTROL_CHARACTERS_MESSAGE, optionalText, requiredText, singleLine, uuid } from './common';
import { PASSWORD_MAX } from './constants';
import { money } from './money';

/**
 * Paying dealers (issue 39): payout details and the W-9, the owner's payment settings, returns,
 * the 1099-NEC threshold and report, and the risk decisions. Decisions 0960-0964.
 */

export const TAX_CLASSIFICATIONS = [
  'individual',
  'c_corporation',
  's_corporation',
  'partnership',
  'trust_estate',
  'llc_c',
  'llc_s',
  'llc_p',
] as const;
export type TaxClassification = (typeof TAX_CLASSIFICATIONS)[number];
export const TAX_CLASSIFICATION_LABELS: Record<TaxClassification, string> = {
  individual: 'Individual / sole proprietor',
  c_corporation: 'C corporation',
  s_corporation: 'S corporation',
  partnership: 'Partnership',
  trust_estate: 'Trust / estate',
  llc_c: 'LLC taxed as a C corporation',
  llc_s: 'LLC taxed as an S corporation',
  llc_p: 'LLC taxed as a partnership',
};
export const PAYOUT_METHODS = ['ach', 'check'] as const;
export const ACCOUNT_TYPES = ['checking', 'savings'] as const;

/** The W-9 certification a dealer signs by typing their legal name; its version is stored with the signature. */
export const W9_CERTIFICATION_VERSION = 'w9-2024-03';
export const W9_CERTIFICATION_TEXT =
  'Under penalties of perjury, I certify that: (1) the number shown on this form is my correct taxpayer identification number; (2) I am not subject to backup withholding; (3) I am a U.S. citizen or other U.S. person; and (4) the FATCA code(s) entered, if any, are correct.';

export const PAYEE_MESSAGES = {
  tin: 'Enter an SSN like 521-43-6789 or an EIN like 12-3456789',
  routingNumber: 'This routing number is not valid (ABA checksum): check the 9 digits',
  routingRequired: 'Routing number is required for direct deposit',
  accountNumber: 'Account number must be 4 to 17 digits',
  accountRequired: 'Account number is required for direct deposit',
  accountType: 'Choose checking or savings',
  certify: 'Check the certification box to sign the W-9',
  signature: 'Type your legal name exactly as above to sign',
  taxClassification: 'Choose a federal tax classification',
  method: 'Choose direct deposit (ACH) or paper check',
  companyId: 'Company id must be 10 characters, like 1123456789',
  payerTin: 'Enter the payer EIN like 12-3456789',
  returnCode: 'Return code must be R followed by two digits, like R03',
  notInBatch: 'This recruiter has no payment in this batch',
  noSettings: 'Set the payment settings (company name, company id, originating bank) first',
  noProfile: 'No payout details yet',
  year: 'Year must be between 2000 and 2100',
  noPayments: 'No payments to you yet this year.',
  /** Issue 45: the payout destination changes only with the current password. */
  currentPasswordRequired: 'Enter your current password to change where your payouts go',
  currentPasswordWrong: 'Current password is incorrect',
  controlCharacters: CONTROL_CHARACTERS_MESSAGE,
} as const;

const digits = (v: string) => v.replace(/[\s-]/g, '');

/** The routing number, 9 digits passing the ABA checksum (abavalidator, decision 0960). */
export const routingNumber = z
  .string({ error: PAYEE_MESSAGES.routingRequired })
  .trim()
  .max(20, PAYEE_MESSAGES.routingNumber)
  .transform(digits)
  .refine((v) => /^\d{9}$/.test(v) && abaChecksum(v), PAYEE_MESSAGES.routingNumber);

/** An SSN (AAA-GG-SSSS, no 000/666/9xx area, no 00 group, no 0000 serial) or an EIN (NN-NNNNNNN). */
export const tin = z
  .string({ error: PAYEE_MESSAGES.tin })
  .trim()
  .max(20, PAYEE_MESSAGES.tin)
  .refine((v) => {
    const ssn = /^(\d{3})-?(\d{2})-?(\d{4})$/.exec(v);
    if (ssn) {
      const [, a, g, s] = ssn;
      return a !== '000' && a !== '666' && !a!.startsWith('9') && g !== '00' && s !== '0000';
    }
    return /^\d{2}-\d{7}$/.test(v) && !v.startsWith('00');
  }, PAYEE_MESSAGES.tin);

export const tinType = (v: string): 'ssn' | 'ein' => (/^\d{2}-\d{7}$/.test(v) ? 'ein' : 'ssn');

export const payeeAddress = z.object({
  street: requiredText('Street address is required'),
  city: requiredText('City is required'),
  state: requiredText('State required', 2).refine((v) => /^[A-Za-z]{2}$/.test(v), 'State: two letters, like TX'),
  zipCode: requiredText('ZIP code is required', 10).refine(
    (v) => /^\d{5}(-\d{4})?$/.test(v),
    'ZIP code: 12345 or 12345-6789',
  ),
});

/** PUT /api/dealer/payout-profile. */
export const payoutProfileInput = z
  .object({
    legalName: singleLine(requiredText('Legal name is required', 120)),
    taxClassification: z.enum(TAX_CLASSIFICATIONS, { error: PAYEE_MESSAGES.taxClassification }),
    tin,
    address: payeeAddress,
    method: z.enum(PAYOUT_METHODS, { error: PAYEE_MESSAGES.method }),
    routingNumber: routingNumber.optional(),
    accountNumber: z
      .string()
      .trim()
      .max(30, PAYEE_MESSAGES.accountNumber)
      .transform(digits)
      .refine((v) => /^\d{4,17}$/.test(v), PAYEE_MESSAGES.accountNumber)
      .optional(),
    accountType: z.enum(ACCOUNT_TYPES, { error: PAYEE_MESSAGES.accountType }).optional(),
    certify: z.literal(true, { error: PAYEE_MESSAGES.certify }),
    /** The typed signature: the legal name again (defaults to it when a client does not ask). */
    signature: singleLine(optionalText(120)),
    /**
     * Issue 45: required when the method, routing number or account number changes (checked by the
     * API against the details on file, counted in the sign-in budget).
     */
    currentPassword: z.string().max(PASSWORD_MAX, PAYEE_MESSAGES.currentPasswordWrong).optional(),
  })
  .superRefine((v, ctx) => {
    if (v.method === 'ach') {
      if (!v.routingNumber)
        ctx.addIssue({ code: 'custom', path: ['routingNumber'], message: PAYEE_MESSAGES.routingRequired });
      if (!v.accountNumber)
        ctx.addIssue({ code: 'custom', path: ['accountNumber'], message: PAYEE_MESSAGES.accountRequired });
      if (!v.accountType) ctx.addIssue({ code: 'custom', path: ['accountType'], message: PAYEE_MESSAGES.accountType });
    }
    if (v.signature && v.signature.toLowerCase() !== v.legalName.toLowerCase())
      ctx.addIssue({ code: 'custom', path: ['signature'], message: PAYEE_MESSAGES.signature });
  });
export type PayoutProfileInput = z.input<typeof payoutProfileInput>;

/** PUT /api/admin/payment-settings: the ACH originator (company name, company id, originating bank) and the 1099 payer. */
export const paymentSettingsInput = z.object({
  companyName: requiredText('Company name is required', 16),
  companyId: z
    .string({ error: PAYEE_MESSAGES.companyId })
    .trim()
    .max(10, PAYEE_MESSAGES.companyId)
    .refine((v) => /^[0-9A-Za-z ]{10}$/.test(v), PAYEE_MESSAGES.companyId),
  originatingRouting: routingNumber,
  originatingBankName: requiredText('Originating bank name is required', 23),
  payerName: requiredText('Payer name is required', 120),
  payerTin: z
    .string({ error: PAYEE_MESSAGES.payerTin })
    .trim()
    .max(10, PAYEE_MESSAGES.payerTin)
    .refine((v) => /^\d{2}-\d{7}$/.test(v), PAYEE_MESSAGES.payerTin),
  payerAddress: payeeAddress,
});

export const payoutReturnInput = z.object({
  id: uuid('Unknown payout batch'),
  recruiterId: uuid('Unknown recruiter'),
  returnCode: z
    .string({ error: PAYEE_MESSAGES.returnCode })
    .trim()
    .max(3, PAYEE_MESSAGES.returnCode)
    .toUpperCase()
    .refine((v) => /^R\d{2}$/.test(v), PAYEE_MESSAGES.returnCode),
  note: optionalText(500),
});

const year = z.coerce
  .number({ error: PAYEE_MESSAGES.year })
  .int(PAYEE_MESSAGES.year)
  .min(2000, PAYEE_MESSAGES.year)
  .max(2100, PAYEE_MESSAGES.year);
export const taxYearQuery = z.object({ year });
export const taxThresholdInput = z.object({
  year,
  amount: money({
    required: 'Amount is required',
    invalid: 'Amount must be dollars and cents, like 2000.00',
    max: 1_000_000_00n,
  }),
});

/** The 1099-NEC threshold by the law in force (Public Law 119-21): 600.00 through 2025, 2,000.00 from 2026. */
export const defaultTaxThreshold = (y: number) => (y <= 2025 ? '600.00' : '2000.00');

export const RISK_STATUSES = ['open', 'cleared', 'voided'] as const;
export const riskListQuery = z.object({
  status: z.enum(RISK_STATUSES, { error: 'Status is open, cleared or voided' }).default('open'),
});
export const riskDecisionInput = z.object({
  id: uuid('Unknown risk flag'),
  reason: requiredText('A reason is required', 500),
});
