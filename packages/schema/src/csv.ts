/**
 * CSV reading per RFC 4180 (quoted fields, doubled quotes, CRLF or LF, a leading BOM), for the
 * order import: the admin console previews and chunks a file with it and the server reads each
 * chunk with it, so both see the same records.
 */

/** One record: its fields, and its text in the source (without the line break that ends it). */
export interface CsvRecord {
  fields: string[];
  text: string;
}

/**
 * The records of CSV text, blank ones left out. A quoted field may hold commas, quotes (doubled)
 * and line breaks, so a record can span several lines. Null when a quoted field never closes.
 */
export function readCsvRecords(text: string): CsvRecord[] | null {
  const records: CsvRecord[] = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let i = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  let start = i;
  const end = (at: number) => {
    fields.push(field);
    if (fields.some((f) => f.trim() !== '')) records.push({ fields, text: text.slice(start, at) });
    fields = [];
    field = '';
  };
  for (; i < text.length; i++) {
    const ch = text[i]!;
    if (quoted) {
      if (ch === '"') {
        if (text[i + 1] === '"') {
          field += '"';
          i++;
        } else quoted = false;
      } else field += ch;
    } else if (ch === '"' && field === '') quoted = true;
    else if (ch === ',') {
      fields.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      end(i);
      if (ch === '\r' && text[i + 1] === '\n') i++;
      start = i + 1;
    } else field += ch;
  }
  if (quoted) return null;
  if (field !== '' || fields.length > 0) end(text.length);
  return records;
}

/** The rows of CSV text as fields (see readCsvRecords). */
export function parseCsv(text: string): string[][] | null {
  return readCsvRecords(text)?.map((r) => r.fields) ?? null;
}
