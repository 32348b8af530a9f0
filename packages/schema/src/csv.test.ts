import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCsv, readCsvRecords } from './csv';

/** RFC 4180 quoting, written here apart from the parser: quote every field, double its quotes. */
const quote = (f: string) => `"${f.replace(/"/g, '""')}"`;

describe('parseCsv', () => {
  it('reads quoted fields, doubled quotes, CRLF and LF, a BOM and blank lines', () => {
    expect(parseCsv('\uFEFFa,b\r\n"x, y","say ""hi"""\n\n1,\n')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['1', ''],
    ]);
    expect(parseCsv('a,"open')).toBeNull();
    expect(parseCsv('')).toEqual([]);
  });

  it('keeps a comma, a line break (LF or CRLF) and a doubled quote inside a quoted field', () => {
    expect(parseCsv('id,note\r\n"A-1, ""big""","two\nlines, one comma"\r\nB-2,"crlf\r\ninside"\r\n')).toEqual([
      ['id', 'note'],
      ['A-1, "big"', 'two\nlines, one comma'],
      ['B-2', 'crlf\r\ninside'],
    ]);
    // A quote inside an unquoted field is a character like any other.
    expect(parseCsv('a"b,c')).toEqual([['a"b', 'c']]);
    // A quoted field that only looks closed by a doubled quote at the end of the text.
    expect(parseCsv('"a"""')).toEqual([['a"']]);
    expect(parseCsv('"a""')).toBeNull();
  });

  it('reads back any fields written with RFC 4180 quoting, whatever they hold', () => {
    const field = fc.string({ unit: fc.constantFrom('a', 'b', ' ', ',', '"', '\n', '\r', '\r\n', 'é'), maxLength: 12 });
    const row = fc.array(field, { minLength: 1, maxLength: 4 }).filter((r) => r.some((f) => f.trim() !== ''));
    fc.assert(
      fc.property(fc.array(row, { minLength: 1, maxLength: 6 }), fc.constantFrom('\n', '\r\n'), (rows, eol) => {
        expect(parseCsv(rows.map((r) => r.map(quote).join(',')).join(eol))).toEqual(rows);
      }),
    );
  });
});

describe('readCsvRecords', () => {
  it("gives each record's own text, so a file can be cut between records and read again", () => {
    const text = '\uFEFFid,note\r\n"A-1","two\nlines"\r\n\r\nB-2,"x, ""y"""\n';
    const records = readCsvRecords(text)!;
    expect(records.map((r) => r.text)).toEqual(['id,note', '"A-1","two\nlines"', 'B-2,"x, ""y"""']);
    // A chunk of the header and any records, joined with line breaks, reads as the same records.
    const [header, ...rows] = records;
    for (const r of rows) expect(parseCsv([header!.text, r.text].join('\r\n'))).toEqual([header!.fields, r.fields]);
  });
});
