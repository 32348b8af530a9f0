export type { Kysely, Transaction } from 'kysely';
export { sql } from 'kysely';
export * from './client';
export * from './migrate';
export * from './prepared';
export * from './seed';
export type * from './types';
