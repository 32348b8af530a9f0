import { parseCsv } from '@dn/schema';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { csvCell, csvLine, csvLines } from './csv';

describe('csv', () => {
  it('quotes per RFC 4180', () => {
    expect(csvCell('plain')).toBe('plain');
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell(null)).toBe('');
    expect(csvCell(false)).toBe('false');
    expect(csvLine(['a', 1, true])).toBe('a,1,true\r\n');
  });

  it('neutralises formulas', () => {
    expect(csvCell('=1+1')).toBe("'=1+1");
    expect(csvCell('+1')).toBe("'+1");
    expect(csvCell('-2')).toBe("'-2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\rx')).toBe(`"'\rx"`);
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvCell('a=b')).toBe('a=b');
  });
});

describe('csvLine and the shared parser', () => {
  it('parseCsv (@dn/schema) reads back what csvLine writes (fields that do not start like a formula)', () => {
    const field = fc.string({ maxLength: 20 }).filter((s) => !/^[=+\-@\t\r]/.test(s) && s.trim() !== '');
    fc.assert(
      fc.property(fc.array(fc.array(field, { minLength: 2, maxLength: 4 }), { minLength: 1, maxLength: 5 }), (rows) => {
        expect(parseCsv(rows.map((r) => csvLine(r)).join(''))).toEqual(rows);
      }),
    );
  });
});

describe('csvLines', () => {
  const fields = ['a', 'b', 'c', 'd'].map((key, i) => ({ key, escaped: i === 1 || i === 2 }));

  it('escapes the escaped columns as csvCell does and writes the others as they are', () => {
    const cells = ['=1+1', '+1', '-2', '@SUM(A1)', '\tx', '\rx', 'a,b', 'say "hi"', 'two\nlines', '', 'plain', 'Zoë'];
    const rows = cells.map((c) => ({ a: 'id,2024-01-01T00:00:00Z', b: c, c: null, d: '-5' }));
    const out = csvLines(rows, fields).toString('utf8');
    expect(out).toBe(cells.map((c) => `id,2024-01-01T00:00:00Z,${csvCell(c)},,-5\r\n`).join(''));
  });

  it('encodes UTF-8, including characters outside the basic plane', () => {
    const rows = [{ a: 'a', b: '日本語 😀', c: '𝄞, "x"', d: 'b' }];
    expect(csvLines(rows, fields)).toEqual(Buffer.from('a,日本語 😀,"𝄞, ""x""",b\r\n', 'utf8'));
  });

  it('grows its buffer for lines longer than it guessed', () => {
    const long = 'é'.repeat(5_000);
    const rows = Array.from({ length: 3 }, (_, i) => ({ a: String(i), b: long, c: `"${long}"`, d: null }));
    const out = csvLines(rows, fields).toString('utf8');
    expect(out).toBe(rows.map((r) => `${r.a},${long},"""${long}""",\r\n`).join(''));
  });

  it('writes nothing for no rows', () => {
    expect(csvLines([], fields).length).toBe(0);
  });
});
