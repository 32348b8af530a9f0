import { parseCsv, readCsvRecords } from '@dn/schema';
import { describe, expect, it } from 'vitest';
import { CHUNK, CHUNK_CHARS, importChunks } from './import-chunks';

const split = (text: string) => {
  const [header, ...rows] = readCsvRecords(text)!;
  return { header: header!, rows };
};

describe('importChunks', () => {
  it('cuts between records: a quoted comma, line break or doubled quote stays in its row', () => {
    const rows = Array.from(
      { length: CHUNK + 3 },
      (_, i) => `O-${i},"Line one\nline two, with a comma",${i}.00,"say ""hi"""`,
    );
    const { header, rows: records } = split(['orderId,note,amount,quote', ...rows].join('\r\n'));
    expect(records).toHaveLength(CHUNK + 3);
    const chunks = importChunks(header, records);
    expect(chunks.map((c) => c.rows)).toEqual([CHUNK, 3]);
    // Each chunk is its own file: the header, then exactly its records, as the server reads it.
    const read = chunks.map((c) => parseCsv(c.csv)!);
    for (const table of read) expect(table[0]).toEqual(['orderId', 'note', 'amount', 'quote']);
    const all = read.flatMap((t) => t.slice(1));
    expect(all).toEqual(records.map((r) => r.fields));
    expect(all[CHUNK]).toEqual([`O-${CHUNK}`, 'Line one\nline two, with a comma', `${CHUNK}.00`, 'say "hi"']);
  });

  it('starts a new chunk before one would pass the size limit', () => {
    const big = 'x'.repeat(Math.floor(CHUNK_CHARS / 3));
    const { header, rows } = split(
      ['orderId,note', ...Array.from({ length: 5 }, (_, i) => `B-${i},"${big}"`)].join('\n'),
    );
    const chunks = importChunks(header, rows);
    expect(chunks.map((c) => c.rows)).toEqual([2, 2, 1]);
    for (const c of chunks) expect(c.csv.length).toBeLessThanOrEqual(CHUNK_CHARS);
  });

  it('sends nothing for a header alone', () => {
    const { header, rows } = split('orderId,amount\n');
    expect(importChunks(header, rows)).toEqual([]);
  });
});
