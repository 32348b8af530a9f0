/**
 * CSV per RFC 4180: fields with a comma, quote, CR or LF are quoted and quotes doubled; lines
 * end with CRLF. Text that a spreadsheet would run as a formula (starting with = + - @, tab or
 * CR) gets a leading apostrophe, the OWASP-recommended neutralisation.
 */
const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;
/** Either of the above: one test answers the common cell, which needs neither. */
const SPECIAL = /^[=+\-@\t\r]|[",\r\n]/;

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

/** A field of csvLines' rows: the property it is read from, and whether it is escaped. */
export interface CsvField {
  key: string;
  escaped: boolean;
}

/**
 * Rows of text fields as CSV lines, in one buffer: an `escaped` field goes through csvCell, any
 * other is written as it is (the caller knows it holds neither a quote, a line break nor a
 * formula start; it may be several cells already joined with commas). Null is an empty cell.
 * A hot loop: the export writes every cell of 100,000 dealers through it. Each line is encoded
 * into the buffer as soon as it is built, so the pieces of a line die young.
 */
export function csvLines(
  rows: readonly Readonly<Record<string, string | null>>[],
  fields: readonly CsvField[],
): Buffer {
  const keys = fields.map((f) => f.key);
  const escaped = fields.map((f) => f.escaped);
  const n = keys.length;
  let buf = Buffer.allocUnsafe(rows.length * 512 + 1024);
  let at = 0;
  for (const row of rows) {
    let line = '';
    for (let i = 0; i < n; i++) {
      if (i > 0) line += ',';
      const v = row[keys[i]!];
      if (v === null || v === undefined) continue;
      line += escaped[i] && SPECIAL.test(v) ? csvCell(v) : v;
    }
    line += '\r\n';
    // UTF-8 takes at most 3 bytes per UTF-16 code unit.
    if (at + line.length * 3 > buf.length) {
      const bigger = Buffer.allocUnsafe(Math.max(buf.length * 2, at + line.length * 3));
      buf.copy(bigger, 0, 0, at);
      buf = bigger;
    }
    at += buf.write(line, at);
  }
  return buf.subarray(0, at);
}
