import type { ColumnType } from 'kysely';

/**
 * What the schema cannot say about a column, for the generated table types (generated/tables.ts,
 * `pnpm db:types`; scripts/table-types.ts says which column takes which).
 */

/** numeric columns travel as strings, read and written: money is never a float. */
export type Decimal = ColumnType<string, string, string>;

/** A json or jsonb column holding `T`, written as the value or as its JSON text. */
export type JsonColumn<T> = ColumnType<T, T | string, T | string>;

/** Kept by PostgreSQL (a generated column, or a counter its triggers keep): read, never written by the app. */
export type ReadOnly<T> = ColumnType<T, never, never>;

/** dealers.address_json */
export interface Address {
  street: string;
  city: string;
  state: string;
  zipCode: string;
  country: string;
}

/** email_outbox.attachments */
export interface EmailAttachment {
  filename: string;
  contentType: string;
  content: string;
  /** 'base64' when `content` holds binary (a PDF) as base64; text otherwise. */
  encoding?: 'base64';
}
