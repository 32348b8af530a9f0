import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { Transform, type TransformCallback } from 'node:stream';

/**
 * The encrypted, authenticated envelope of a backup file (issue 46, decision 1030): AES-256-GCM
 * from node:crypto in the STREAM construction (as `age` does), so a file of any size is written
 * and checked in 64 KiB pieces without holding it in memory, and nothing is handed on before the
 * piece it came from has been authenticated:
 *
 *   "DN-BACKUP-ENC 1\n"  16 bytes
 *   key id                8 bytes   HMAC-SHA256(backup key, "dn-backup key id"), its first 8 bytes
 *   salt                 32 bytes   random per file; the file's key is HKDF-SHA256(backup key, salt)
 *   chunks                          64 KiB of the plain backup each (the last shorter), sealed with
 *                                   a 16-byte tag; nonce = 11-byte big-endian counter + last flag
 *
 * The header is every chunk's associated data, so a changed byte anywhere (header, a chunk, the
 * order of chunks, a cut-off end, bytes added after the last chunk) fails authentication.
 */

export const ENCRYPTED_MAGIC = 'DN-BACKUP-ENC 1\n';
const KEY_ID_BYTES = 8;
const SALT_BYTES = 32;
export const ENCRYPTED_HEADER_BYTES = ENCRYPTED_MAGIC.length + KEY_ID_BYTES + SALT_BYTES;
/** Plain bytes per chunk. */
export const CHUNK_BYTES = 64 * 1024;
const TAG_BYTES = 16;
const SEALED_CHUNK = CHUNK_BYTES + TAG_BYTES;

/** A backup that cannot be opened (changed, cut off, or sealed with another key). */
export class BackupIntegrityError extends Error {
  override name = 'BackupIntegrityError';
}

/** The 32-byte key a backup key setting names (base64, as DATA_ENCRYPTION_KEY). */
export function backupKeyFrom(base64: string): Buffer {
  const key = Buffer.from(base64, 'base64');
  if (key.length !== 32) throw new BackupIntegrityError('The backup key must be 32 random bytes in base64');
  return key;
}

/** A short public name of a key: shows which key sealed a file without saying anything of the key. */
export function backupKeyId(key: Buffer): Buffer {
  return createHmac('sha256', key).update('dn-backup key id').digest().subarray(0, KEY_ID_BYTES);
}

function fileKey(key: Buffer, salt: Buffer): Buffer {
  return Buffer.from(hkdfSync('sha256', key, salt, 'dn-backup v1 aes-256-gcm', 32));
}

function nonce(counter: number, last: boolean): Buffer {
  const n = Buffer.alloc(12);
  n.writeUIntBE(counter, 5, 6); // 2^48 chunks of 64 KiB: more than any backup
  n[11] = last ? 1 : 0;
  return n;
}

/** Encrypts a plain backup stream into the envelope. */
export function encryptStream(key: Buffer): Transform {
  const salt = randomBytes(SALT_BYTES);
  const header = Buffer.concat([Buffer.from(ENCRYPTED_MAGIC, 'latin1'), backupKeyId(key), salt]);
  const k = fileKey(key, salt);
  let counter = 0;
  let pending: Buffer[] = [];
  let pendingBytes = 0;
  const seal = (plain: Buffer, last: boolean) => {
    const cipher = createCipheriv('aes-256-gcm', k, nonce(counter++, last));
    cipher.setAAD(header);
    return Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
  };
  return new Transform({
    construct(callback) {
      this.push(header);
      callback();
    },
    transform(chunk: Buffer, _enc, callback: TransformCallback) {
      pending.push(chunk);
      pendingBytes += chunk.length;
      // Keep at least one byte back: the last chunk is sealed as last in flush, never empty unless the backup is.
      if (pendingBytes > CHUNK_BYTES) {
        let all = Buffer.concat(pending);
        while (all.length > CHUNK_BYTES) {
          this.push(seal(all.subarray(0, CHUNK_BYTES), false));
          all = all.subarray(CHUNK_BYTES);
        }
        pending = [all];
        pendingBytes = all.length;
      }
      callback();
    },
    flush(callback) {
      this.push(seal(Buffer.concat(pending), true));
      callback();
    },
  });
}

/**
 * Decrypts the envelope, handing on each chunk only once it is authenticated; fails with a
 * BackupIntegrityError naming what is wrong (another key, a changed byte, a cut-off file).
 */
export function decryptStream(key: Buffer): Transform {
  let header: Buffer | null = null;
  let k: Buffer;
  let counter = 0;
  let buffered: Buffer = Buffer.alloc(0);
  let offset = 0;
  const open = (sealed: Buffer, last: boolean): Buffer => {
    const decipher = createDecipheriv('aes-256-gcm', k, nonce(counter, last));
    decipher.setAAD(header!);
    decipher.setAuthTag(sealed.subarray(sealed.length - TAG_BYTES));
    try {
      const plain = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - TAG_BYTES)), decipher.final()]);
      counter++;
      offset += sealed.length;
      return plain;
    } catch {
      throw new BackupIntegrityError(
        `The backup was changed after it was written (bytes ${offset} to ${offset + sealed.length} fail authentication): refused`,
      );
    }
  };
  return new Transform({
    transform(chunk: Buffer, _enc, callback: TransformCallback) {
      try {
        buffered = buffered.length ? Buffer.concat([buffered, chunk]) : chunk;
        if (!header) {
          if (buffered.length < ENCRYPTED_HEADER_BYTES) return callback();
          header = Buffer.from(buffered.subarray(0, ENCRYPTED_HEADER_BYTES));
          if (header.subarray(0, ENCRYPTED_MAGIC.length).toString('latin1') !== ENCRYPTED_MAGIC) {
            throw new BackupIntegrityError('This file is not an encrypted dealer network backup');
          }
          const id = header.subarray(ENCRYPTED_MAGIC.length, ENCRYPTED_MAGIC.length + KEY_ID_BYTES);
          if (!id.equals(backupKeyId(key))) {
            throw new BackupIntegrityError(
              `The backup was encrypted with another backup key (key id ${id.toString('hex')}, this one's ${backupKeyId(key).toString('hex')}): set BACKUP_ENCRYPTION_KEY to the key it was made with`,
            );
          }
          k = fileKey(key, header.subarray(ENCRYPTED_MAGIC.length + KEY_ID_BYTES));
          offset = ENCRYPTED_HEADER_BYTES;
          buffered = buffered.subarray(ENCRYPTED_HEADER_BYTES);
        }
        // A full chunk with more after it is not the last one.
        while (buffered.length > SEALED_CHUNK) {
          this.push(open(buffered.subarray(0, SEALED_CHUNK), false));
          buffered = buffered.subarray(SEALED_CHUNK);
        }
        callback();
      } catch (err) {
        callback(err as Error);
      }
    },
    flush(callback) {
      try {
        if (!header) throw new BackupIntegrityError('This file is not an encrypted dealer network backup');
        if (buffered.length < TAG_BYTES) {
          throw new BackupIntegrityError('The backup ends early: the file was cut off after it was written');
        }
        this.push(open(buffered, true));
        callback();
      } catch (err) {
        // A cut-off file ends on a full chunk sealed as "not last": say so rather than "changed".
        const cut = err instanceof BackupIntegrityError && buffered.length === SEALED_CHUNK && counter > 0;
        callback(
          cut ? new BackupIntegrityError(`${(err as Error).message} (or the file was cut off)`) : (err as Error),
        );
      }
    },
  });
}

/** What the first bytes of a backup file say it is. */
export type BackupFileKind = 'encrypted' | 'logical' | 'pg_dump' | 'unknown';

export function backupFileKind(first: Buffer): BackupFileKind {
  if (first.subarray(0, ENCRYPTED_MAGIC.length).toString('latin1') === ENCRYPTED_MAGIC) return 'encrypted';
  if (first[0] === 0x1f && first[1] === 0x8b) return 'logical'; // gzip: the logical dump
  if (first.subarray(0, 5).toString('latin1') === 'PGDMP') return 'pg_dump';
  return 'unknown';
}
