import { type CsvRecord, IMPORT_MAX_CHARS, IMPORT_MAX_ROWS } from '@dn/schema';

/** Rows per import request: small enough for a moving progress bar, at most the server's limit. */
export const CHUNK = Math.min(200, IMPORT_MAX_ROWS);
/** Characters per request, with room under the server's limit for the header. */
export const CHUNK_CHARS = IMPORT_MAX_CHARS - 10_000;

/**
 * Cuts the records into requests between records (never inside a quoted field): at most CHUNK
 * rows and about CHUNK_CHARS characters each. Each chunk repeats the header and keeps the
 * records' own text, so the server reads exactly what the preview showed.
 */
export function importChunks(header: CsvRecord, rows: readonly CsvRecord[]): { csv: string; rows: number }[] {
  const chunks: { csv: string; rows: number }[] = [];
  let texts: string[] = [];
  let size = header.text.length;
  for (const r of rows) {
    if (texts.length === CHUNK || (texts.length > 0 && size + r.text.length + 2 > CHUNK_CHARS)) {
      chunks.push({ csv: [header.text, ...texts].join('\r\n'), rows: texts.length });
      texts = [];
      size = header.text.length;
    }
    texts.push(r.text);
    size += r.text.length + 2;
  }
  if (texts.length) chunks.push({ csv: [header.text, ...texts].join('\r\n'), rows: texts.length });
  return chunks;
}
