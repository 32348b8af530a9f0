import { sql } from 'kysely';
import type { Executor } from './executor';

/** Resolves when the database answers a trivial query. */
export async function ping(db: Executor): Promise<void> {
  await sql`select 1`.execute(db);
}
