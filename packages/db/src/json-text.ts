import { randomUUID } from 'node:crypto';
import { type RawBuilder, sql } from 'kysely';

/**
 * A value as JSON text that PostgreSQL wrote (rows as `row_to_json`, joined by `string_agg`), carried
 * to the answer as it is: a polled page's rows are neither parsed into objects nor serialized again
 * (docs/decisions/0800-json-written-by-postgresql.md). `stringifyAnswer` writes the text into the
 * answer unchanged; any other `JSON.stringify` (tRPC's own handler, a test) gets the parsed value
 * from `toJSON`, so an answer is the same whichever writes it. `T` is the value's JSON shape.
 */
export class JsonText<T> {
  constructor(readonly text: string) {}

  toJSON(): T {
    if (splicing) {
      splicing.push(this.text);
      return `${MARK}${splicing.length - 1}` as T;
    }
    return JSON.parse(this.text) as T;
  }
}

/** A row's JSON shape: its timestamps as JSON.stringify writes a Date (toISOString). */
export type AsJson<T> = {
  [K in keyof T]: T[K] extends Date ? string : Date extends T[K] ? Exclude<T[K], Date> | string : T[K];
};

/**
 * A timestamp in SQL as JSON.stringify writes a Date (toISOString, UTC to the millisecond; both cut
 * microseconds rather than round them): for JSON that PostgreSQL writes, and text meant to match it.
 */
export const isoTimestamp = (x: RawBuilder<unknown>) =>
  sql<string>`to_char(${x} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/** The texts of the JsonText values met by the stringify running now (it is synchronous). */
let splicing: string[] | null = null;
/** Stands in for a text while the rest is stringified: unguessable, and no stored text holds U+0000. */
const MARK = `\u0000json-text:${randomUUID()}:`;
const QUOTED_MARK = JSON.stringify(MARK).slice(0, -1);

/** JSON.stringify, with every JsonText written as its text (the transports' serializer). */
export function stringifyAnswer(value: unknown): string {
  const texts: string[] = [];
  splicing = texts;
  let out: string;
  try {
    out = JSON.stringify(value);
  } finally {
    splicing = null;
  }
  if (texts.length === 0) return out;
  let spliced = '';
  let from = 0;
  for (const [i, text] of texts.entries()) {
    const token = `${QUOTED_MARK}${i}"`;
    const at = out.indexOf(token, from);
    if (at < 0) throw new Error('stringifyAnswer: a JsonText was not written where its toJSON was called');
    spliced += out.slice(from, at) + text;
    from = at + token.length;
  }
  return spliced + out.slice(from);
}
