import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvLine } from './csv';
import { parseCsv } from './csv-parse';

describe('parseCsv', () => {
  it('reads quoted fields, doubled quotes, CRLF and LF, a BOM and blank lines', () => {
    expect(parseCsv('\uFEFFa,b\r\n"x, y","say ""hi"""\n\n1,\n')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['1', ''],
    ]);
    expect(parseCsv('a,"open')).toBeNull();
  });

  it('reads back what csvLine writes (fields that do not start like a formula)', () => {
    const field = fc.string({ maxLength: 20 }).filter((s) => !/^[=+\-@\t\r]/.test(s) && s.trim() !== '');
    fc.assert(
      fc.property(fc.array(fc.array(field, { minLength: 2, maxLength: 4 }), { minLength: 1, maxLength: 5 }), (rows) => {
        expect(parseCsv(rows.map((r) => csvLine(r)).join(''))).toEqual(rows);
      }),
    );
  });
});
