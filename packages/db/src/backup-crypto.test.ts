import { randomBytes } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { CHUNK_BYTES, decryptStream, ENCRYPTED_HEADER_BYTES, encryptStream } from './backup-crypto';

/** The backup envelope (issue 46, decision 1030): streams both ways, and any change is refused. */

const key = randomBytes(32);

async function through(input: Buffer, stream: ReturnType<typeof encryptStream>, pieces = 7919): Promise<Buffer> {
  const out: Buffer[] = [];
  const parts: Buffer[] = [];
  for (let i = 0; i < input.length; i += pieces) parts.push(input.subarray(i, i + pieces));
  await pipeline(
    Readable.from(parts),
    stream,
    new Writable({
      write(c: Buffer, _e, cb) {
        out.push(c);
        cb();
      },
    }),
  );
  return Buffer.concat(out);
}

const SEALED = CHUNK_BYTES + 16;

describe('the backup envelope', () => {
  it.each([0, 1, CHUNK_BYTES - 1, CHUNK_BYTES, CHUNK_BYTES + 1, 3 * CHUNK_BYTES, 200_001])(
    'a backup of %i bytes comes back the same, whatever the pieces it is written in',
    async (size) => {
      const plain = randomBytes(size);
      const sealed = await through(plain, encryptStream(key));
      expect(sealed.length).toBe(ENCRYPTED_HEADER_BYTES + size + 16 * Math.max(1, Math.ceil(size / CHUNK_BYTES)));
      expect(await through(sealed, decryptStream(key), 1000)).toEqual(plain);
    },
  );

  it('refuses a file cut at a chunk boundary, with chunks swapped, or with a chunk added', async () => {
    const plain = randomBytes(3 * CHUNK_BYTES + 10);
    const sealed = await through(plain, encryptStream(key));
    const head = sealed.subarray(0, ENCRYPTED_HEADER_BYTES);
    const chunk = (i: number) =>
      sealed.subarray(ENCRYPTED_HEADER_BYTES + i * SEALED, ENCRYPTED_HEADER_BYTES + (i + 1) * SEALED);
    const last = sealed.subarray(ENCRYPTED_HEADER_BYTES + 3 * SEALED);
    const cut = Buffer.concat([head, chunk(0), chunk(1)]);
    await expect(through(cut, decryptStream(key))).rejects.toThrow(/cut off/);
    const swapped = Buffer.concat([head, chunk(1), chunk(0), chunk(2), last]);
    await expect(through(swapped, decryptStream(key))).rejects.toThrow(/changed after it was written/);
    const added = Buffer.concat([sealed, chunk(0)]);
    await expect(through(added, decryptStream(key))).rejects.toThrow(/changed after it was written/);
    // Two files of the same backup differ (a salt each): nothing to compare between them.
    expect((await through(plain, encryptStream(key))).equals(sealed)).toBe(false);
  });
});
