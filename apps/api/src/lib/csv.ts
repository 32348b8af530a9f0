/**
 * CSV per RFC 4180: fields with a comma, quote, CR or LF are quoted and quotes doubled; lines
 * end with CRLF. Text that a spreadsheet would run as a formula (starting with = + - @, tab or
 * CR) gets a leading apostrophe, the OWASP-recommended neutralisation.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export type CsvValue = string | number | boolean | Date | null | undefined;

export function csvCell(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let s: string;
  if (value instanceof Date) s = value.toISOString();
  else if (typeof value === 'string') s = FORMULA_START.test(value) ? `'${value}` : value;
  else s = String(value);
  return NEEDS_QUOTES.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

export function csvLine(values: readonly CsvValue[]): string {
  return `${values.map(csvCell).join(',')}\r\n`;
}
