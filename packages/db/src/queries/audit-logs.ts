import type { Insertable } from 'kysely';
import type { DB } from '../types';
import type { Executor } from './executor';

export type AuditLogRow = Insertable<DB['auditLogs']>;

/** Writes one audit row; the caller passes the transaction that makes the change it records. */
export async function insertAuditLog(db: Executor, row: AuditLogRow): Promise<void> {
  await db.insertInto('auditLogs').values(row).execute();
}

/** Writes a batch of audit rows in one statement (a bulk decision, an undo). */
export async function insertAuditLogs(db: Executor, rows: readonly AuditLogRow[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insertInto('auditLogs')
    .values(rows as AuditLogRow[])
    .execute();
}
