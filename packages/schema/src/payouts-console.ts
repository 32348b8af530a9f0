import { plural } from './words';

/**
 * The one way people read a date with its time (issue 47): "Nov 29, 2026, 12:00 PM EST", in the
 * reader's own zone (the browser's), never an ISO string or an IANA zone name. `timeZone` for tests;
 * `seconds` for the logs (activity, scheduled tasks). A date alone is DATE_FORMAT's "Nov 29, 2026".
 */
export function displayDateTime(iso: string | Date, timeZone?: string, seconds = false): string {
  return new Intl.DateTimeFormat('en-US', {
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: '2-digit',
    ...(seconds ? { second: '2-digit' as const } : {}),
    timeZoneName: 'short',
    ...(timeZone ? { timeZone } : {}),
  }).format(typeof iso === 'string' ? new Date(iso) : iso);
}

/** The approval's toast when some commissions were not approved (issue 47, item 5): a warning that says when. */
export const APPROVAL_WORDS = {
  title: (approved: number, skipped: number) =>
    approved === 0
      ? `No commission approved · ${plural(skipped, 'commission')} skipped`
      : `${plural(approved, 'commission')} approved · ${skipped} skipped`,
  onHold: (until: string) => `On hold until ${until}: approve it then.`,
} as const;

/** The Payouts section's owner screens (issue 47, item 4): payment settings, the 1099-NEC report and threshold, returns. */
export const PAYOUTS_CONSOLE_WORDS = {
  settingsTitle: 'Payment settings',
  settingsIntro:
    'The company and originating bank on the NACHA bank file, and the payer on the 1099-NEC report. Ask your bank for the company id and routing number.',
  settingsMissing: 'Not set yet: the bank file and the 1099-NEC report cannot be made until they are saved.',
  settingsSaved: 'Payment settings saved',
  settingsFailed: 'Payment settings not saved',
  lastSaved: (by: string, at: string) => `Last saved by ${by} on ${at}`,
  save: 'Save payment settings',
  taxTitle: '1099-NEC',
  taxIntro: 'Every payee paid at least the year’s threshold, in the columns a 1099 e-filing service imports.',
  threshold: (year: number, amount: string, byOwner: boolean) =>
    `${year} threshold: ${amount} (${byOwner ? 'set by an owner' : 'the law’s'})`,
  thresholdSaved: (year: number) => `${year} threshold saved`,
  thresholdFailed: 'Threshold not saved',
  saveThreshold: 'Save threshold',
  download: 'Download 1099-NEC report',
  needsSettings: 'Set the payment settings above first: the report names the payer (name, EIN, address).',
  downloadFailed: 'Download failed',
  returnButton: 'Record return',
  returnTitle: 'Record a returned payment',
  returnBody: (name: string, amount: string) =>
    `The bank returned the payment of ${amount} to ${name}: it is approved again for a later batch, their payout details are marked to fix, and they are emailed.`,
  returnCode: 'Return code',
  returnCodeHint:
    'From the bank’s return notice: R01 insufficient funds, R02 account closed, R03 no account, R04 invalid account number.',
  returnNote: 'Note (optional)',
  returnConfirm: 'Record return',
  returnSaved: (name: string) => `Return recorded for ${name}`,
  returnSavedDetail: 'The amount is approved again and the payee is emailed.',
  returnFailed: 'Return not recorded',
} as const;
