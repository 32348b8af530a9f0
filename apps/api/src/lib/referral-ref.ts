import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * The referral picker's opaque reference (issue 35, finding 8; decision 0885): what the public
 * typeahead answers instead of a dealer's id, and what a signup's `referredBy` carries back. The
 * dealer's id and an expiry sealed with AES-256-GCM under a key derived from the session secret, with
 * a fresh IV each time: the same dealer has a new reference in every answer (nothing to collect or
 * match across answers), it is unreadable and unforgeable outside the server, and it opens only
 * here, for a signup, until it expires. 48 bytes: IV 12, dealer id 16, expiry 4 (Unix seconds),
 * tag 16; 64 base64url characters (REFERRAL_REF_SHAPE in @dn/schema).
 */
export const REFERRAL_REF_TTL_SEC = 24 * 60 * 60;

const keys = new Map<string, Buffer>();
const keyOf = (secret: string) => {
  let key = keys.get(secret);
  if (!key) {
    key = Buffer.from(hkdfSync('sha256', secret, '', 'dn referral picker reference v1', 32));
    keys.set(secret, key);
  }
  return key;
};

export function sealReferralRef(secret: string, dealerId: string, nowMs = Date.now()): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(secret), iv);
  const expiry = Buffer.alloc(4);
  expiry.writeUInt32BE(Math.floor(nowMs / 1000) + REFERRAL_REF_TTL_SEC);
  const body = Buffer.concat([cipher.update(Buffer.from(dealerId.replace(/-/g, ''), 'hex')), cipher.update(expiry)]);
  cipher.final();
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

/** The dealer id a reference names, or null when it is malformed, altered, not ours or expired. */
export function openReferralRef(secret: string, ref: string, nowMs = Date.now()): string | null {
  const raw = Buffer.from(ref, 'base64url');
  if (raw.length !== 48) return null;
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(secret), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(32));
    const plain = Buffer.concat([decipher.update(raw.subarray(12, 32)), decipher.final()]);
    if (plain.readUInt32BE(16) * 1000 <= nowMs) return null;
    const hex = plain.subarray(0, 16).toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
  } catch {
    return null;
  }
}
