import type { Kysely } from 'kysely';
import type { DB } from '../types';

/** Query functions take the executor first: the database, or a transaction opened by a service. */
export type Executor = Kysely<DB>;
