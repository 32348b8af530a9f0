import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes, URL-safe: session ids and one-time tokens. */
export const randomToken = () => randomBytes(32).toString('base64url');

/** What the database keeps of a secret. */
export const sha256 = (value: string) => createHash('sha256').update(value).digest('hex');

export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
