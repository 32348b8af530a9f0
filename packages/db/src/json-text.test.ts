import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonText, stringifyAnswer } from './json-text';

/** `value` with some of its parts (chosen by `pick`) replaced by JsonText of their own JSON. */
function withTexts(value: unknown, pick: () => boolean): unknown {
  if (pick()) return new JsonText(JSON.stringify(value));
  if (Array.isArray(value)) return value.map((v) => withTexts(v, pick));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withTexts(v, pick)]));
  }
  return value;
}

describe('stringifyAnswer', () => {
  it('writes what JSON.stringify writes, each JsonText as its own text, wherever it sits', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.infiniteStream(fc.boolean()), (value, picks) => {
        const flips = picks[Symbol.iterator]();
        const mixed = withTexts(value, () => flips.next().value as boolean);
        const plain = JSON.stringify(value);
        expect(stringifyAnswer(mixed)).toBe(plain);
        // Any other stringify gets the parsed value from toJSON: the same answer.
        expect(JSON.stringify(mixed)).toBe(plain);
      }),
      { numRuns: 500 },
    );
  });

  it('writes the text as PostgreSQL wrote it, not re-serialized, and leaves look-alike strings alone', () => {
    const rows = new JsonText<{ a: number }[]>('[{"a":1},{"a":2}]');
    const lookAlike = '\u0000json-text:not-this-process:0';
    expect(stringifyAnswer({ result: { data: { items: rows, n: 2, s: lookAlike } } })).toBe(
      `{"result":{"data":{"items":[{"a":1},{"a":2}],"n":2,"s":${JSON.stringify(lookAlike)}}}}`,
    );
    expect(stringifyAnswer([rows, rows])).toBe('[[{"a":1},{"a":2}],[{"a":1},{"a":2}]]');
    expect(stringifyAnswer({ ok: true })).toBe('{"ok":true}');
  });

  it('leaves no JsonText marked after a stringify that throws', () => {
    const circular: Record<string, unknown> = { items: new JsonText('[]') };
    circular.self = circular;
    expect(() => stringifyAnswer(circular)).toThrow(TypeError);
    expect(JSON.stringify({ items: new JsonText('[1]') })).toBe('{"items":[1]}');
  });
});
