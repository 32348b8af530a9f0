import { createReadStream, statSync } from 'node:fs';
import { pipeline, type Readable } from 'node:stream';
import { BackupError, type BackupSummary, verifyBackup } from './backup';
import { BackupIntegrityError, backupFileKind, decryptStream, ENCRYPTED_HEADER_BYTES } from './backup-crypto';

/**
 * A backup file as a restore or a check reads it (issue 46, decision 1030): an encrypted one is
 * decrypted as it is read, each chunk authenticated before it is handed on; a file of the format
 * before encryption (a bare logical dump or pg_dump file) is refused unless the caller allows it.
 */

export type InnerFormat = 'logical' | 'pg_dump';

export interface OpenedBackup {
  /** The plain backup: the logical dump (gzip) or pg_dump's custom format. */
  stream: Readable;
  format: InnerFormat;
  encrypted: boolean;
}

export const UNENCRYPTED_REFUSED =
  'This backup is not encrypted (it was made before backups were, or by hand), so nothing shows it is unchanged: if you trust it, add --allow-unencrypted';

/** The first `n` bytes of a stream, put back so the stream still reads from its start. */
async function peek(stream: Readable, n: number): Promise<Buffer> {
  const parts: Buffer[] = [];
  let length = 0;
  while (length < n) {
    if (stream.errored) throw stream.errored;
    const chunk = stream.read() as Buffer | null;
    if (chunk) {
      parts.push(chunk);
      length += chunk.length;
      continue;
    }
    if (stream.readableEnded || stream.destroyed) break;
    await new Promise<void>((resolve, reject) => {
      const done = () => {
        off();
        resolve();
      };
      const fail = (err: Error) => {
        off();
        reject(err);
      };
      const off = () => {
        stream.off('readable', done);
        stream.off('end', done);
        stream.off('close', done);
        stream.off('error', fail);
      };
      stream.on('readable', done);
      stream.on('end', done);
      stream.on('close', done);
      stream.on('error', fail);
    });
  }
  const all = Buffer.concat(parts);
  if (all.length > 0) stream.unshift(all);
  return all.subarray(0, n);
}

const asBackupError = (err: unknown) =>
  err instanceof BackupError
    ? err
    : err instanceof BackupIntegrityError
      ? new BackupError(err.message)
      : (err as NodeJS.ErrnoException).code === 'ENOENT'
        ? new BackupError(`There is no backup file ${(err as NodeJS.ErrnoException).path ?? ''}`.trim())
        : new BackupError(`The backup cannot be read: ${(err as Error).message}`);

/** Opens a backup file for reading its plain content. */
export async function openBackupFile(
  file: string,
  key: Buffer,
  opts: { allowUnencrypted?: boolean } = {},
): Promise<OpenedBackup> {
  try {
    const raw = createReadStream(file);
    const first = await peek(raw, ENCRYPTED_HEADER_BYTES);
    const kind = backupFileKind(first);
    if (kind === 'unknown') {
      raw.destroy();
      throw new BackupError('This file is not a dealer network backup');
    }
    if (kind !== 'encrypted') {
      if (!opts.allowUnencrypted) {
        raw.destroy();
        throw new BackupError(UNENCRYPTED_REFUSED);
      }
      return { stream: raw, format: kind, encrypted: false };
    }
    const plain = pipeline(raw, decryptStream(key), () => undefined);
    const inner = backupFileKind(await peek(plain, 5));
    if (inner !== 'logical' && inner !== 'pg_dump') {
      plain.destroy();
      throw new BackupError('The backup decrypts, but what it holds is not a dealer network backup');
    }
    return { stream: plain, format: inner, encrypted: true };
  } catch (err) {
    throw asBackupError(err);
  }
}

export interface VerifiedBackup {
  file: string;
  bytes: number;
  format: InnerFormat;
  encrypted: boolean;
  /** The logical format's header and counts (pg_dump's file is checked whole, but not parsed). */
  summary: BackupSummary | null;
}

/**
 * Checks a backup file without restoring it (pnpm db:backup --verify; every backup after it is
 * written): every chunk authenticated to the end and, for the logical format, every table's rows
 * counted against the trailer. Fails with a one-line BackupError saying what is wrong.
 */
export async function verifyBackupFile(
  file: string,
  key: Buffer,
  opts: { allowUnencrypted?: boolean } = {},
): Promise<VerifiedBackup> {
  const opened = await openBackupFile(file, key, opts);
  try {
    let summary: BackupSummary | null = null;
    if (opened.format === 'logical') {
      summary = await verifyBackup(opened.stream);
    } else {
      // Read to the end: every chunk's tag is checked on the way.
      for await (const _chunk of opened.stream) {
        // nothing to keep
      }
    }
    return { file, bytes: statSync(file).size, format: opened.format, encrypted: opened.encrypted, summary };
  } catch (err) {
    opened.stream.destroy();
    throw asBackupError(err);
  }
}
