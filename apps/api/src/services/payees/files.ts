import { createRequire } from 'node:module';
import type { PaymentSettings } from '@dn/db';
import { csvLine } from '../../lib/csv';

/**
 * The files a paid batch needs (issue 39; decision 0962): the NACHA ACH file of the direct-deposit
 * payees, written by the maintained `nach2` package (PPD for individuals, CCD for businesses, one
 * credit per payee; records end with CRLF), and the check register of the paper-check payees. Pure: the caller reads the
 * lines, opens the sealed account numbers and audits the download.
 */

// nach2 is CommonJS without types: the little of it used here, typed.
interface NachRecord {
  get(field: string): unknown;
}
interface NachModule {
  File: new (
    o: Record<string, unknown>,
  ) => NachRecord & {
    addBatch(b: unknown): void;
    generateFile(cb: (result: string) => void): void;
  };
  Batch: new (
    o: Record<string, unknown>,
  ) => NachRecord & { addEntry(e: unknown): void; _entries: unknown[]; control: { addendaCount: { value: number } } };
  Entry: new (o: Record<string, unknown>) => NachRecord & { getRecordCount(): number };
}
// Loaded by require: its (missing) types are the interfaces above, wherever this file is type-checked.
const nach = createRequire(import.meta.url)('nach2') as NachModule;

export interface AchPayee {
  recruiterId: string;
  name: string;
  /** individual -> PPD; any business classification -> CCD */
  individual: boolean;
  routingNumber: string;
  accountNumber: string;
  accountType: 'checking' | 'savings';
  /** dollars and cents, exact text ("123.45") */
  amount: string;
}

export interface CheckPayee {
  recruiterId: string;
  name: string;
  address: { street: string; city: string; state: string; zipCode: string };
  amount: string;
}

/** NACHA text fields: upper case ASCII letters, digits, spaces and a few marks. */
const ach = (s: string, width: number) =>
  s
    .normalize('NFKD')
    .replace(/[^\x20-\x7e]/g, '')
    .replace(/[^A-Za-z0-9 .,&'/-]/g, ' ')
    .toUpperCase()
    .slice(0, width)
    .trim();

/** The next business day (Monday to Friday) after `now`, as the entries' effective date. */
export function effectiveDate(now: Date) {
  const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
  while (d.getUTCDay() === 0 || d.getUTCDay() === 6) d.setUTCDate(d.getUTCDate() + 1);
  return d;
}

const yymmdd = (d: Date) => d.toISOString().slice(2, 10).replace(/-/g, '');
const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'];

/** The NACHA file of a batch's direct-deposit payees: a PPD batch and a CCD batch, as needed. */
export function buildAchFile(
  settings: Pick<PaymentSettings, 'companyName' | 'companyId' | 'originatingRouting' | 'originatingBankName'>,
  payees: readonly AchPayee[],
  opts: { now: Date; reference: string },
): Promise<string> {
  const when = effectiveDate(opts.now);
  const file = new nach.File({
    immediateDestination: settings.originatingRouting,
    immediateOrigin: settings.companyId,
    immediateDestinationName: ach(settings.originatingBankName, 23),
    immediateOriginName: ach(settings.companyName, 23),
    referenceCode: ach(opts.reference, 8),
    fileCreationDate: yymmdd(opts.now),
    fileCreationTime: opts.now.toISOString().slice(11, 16).replace(':', ''),
  });
  let trace = 0;
  for (const [sec, individual] of [
    ['PPD', true],
    ['CCD', false],
  ] as const) {
    const group = payees.filter((p) => p.individual === individual);
    if (group.length === 0) continue;
    const batch = new nach.Batch({
      serviceClassCode: '220',
      companyName: ach(settings.companyName, 16),
      standardEntryClassCode: sec,
      companyIdentification: settings.companyId,
      companyEntryDescription: 'COMMISSION',
      companyDescriptiveDate: `${MONTHS[when.getUTCMonth()]} ${String(when.getUTCDate()).padStart(2, '0')}`,
      effectiveEntryDate: when,
      originatingDFI: settings.originatingRouting.slice(0, 8),
    });
    const entries = group.map((p) => {
      trace += 1;
      return new nach.Entry({
        receivingDFI: p.routingNumber.slice(0, 8),
        DFIAccount: p.accountNumber,
        amount: p.amount,
        idNumber: ach(p.recruiterId, 15) || 'PAYEE',
        individualName: ach(p.name, 22) || 'PAYEE',
        discretionaryData: '  ',
        transactionCode: p.accountType === 'savings' ? '32' : '22',
        // The ODFI's routing number (8 digits) and a sequence: nach2 would use the origin's.
        traceNumber: `${settings.originatingRouting.slice(0, 8)}${String(trace).padStart(7, '0')}`,
      });
    });
    // nach2's addEntry re-adds every entry's totals each time (quadratic: 35 s for 10,000 payees):
    // all but the last are put in as addEntry would, and the last one's addEntry totals them once.
    for (const e of entries.slice(0, -1)) {
      batch.control.addendaCount.value += e.getRecordCount();
      batch._entries.push(e);
    }
    batch.addEntry(entries.at(-1));
    file.addBatch(batch);
  }
  return new Promise((resolve) => file.generateFile((text) => resolve(text.endsWith('\r\n') ? text : `${text}\r\n`)));
}

/** The check register: one line per paper-check payee, to print and mail. */
export function buildCheckRegister(batchId: string, payees: readonly CheckPayee[]) {
  return [
    csvLine(['Payee', 'Street', 'City', 'State', 'ZIP Code', 'Amount', 'Memo', 'Recruiter ID', 'Batch ID']),
    ...payees.map((p) =>
      csvLine([
        p.name,
        p.address.street,
        p.address.city,
        p.address.state,
        p.address.zipCode,
        p.amount,
        `Commissions, batch ${batchId.slice(0, 8)}`,
        p.recruiterId,
        batchId,
      ]),
    ),
  ].join('');
}
