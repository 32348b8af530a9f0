import type { FastifyRequest } from 'fastify';
import { describe, expect, it } from 'vitest';
import { containsNul, isCrossSite } from './security';

const PUBLIC = 'https://dealers.example.com';
const req = (headers: Record<string, string>) =>
  ({ headers: { host: 'dealers.example.com', ...headers } }) as FastifyRequest;

describe('isCrossSite', () => {
  it('lets through requests without Origin or Sec-Fetch-Site, and same-origin ones', () => {
    expect(isCrossSite(req({}), PUBLIC)).toBe(false);
    expect(isCrossSite(req({ origin: PUBLIC }), PUBLIC)).toBe(false);
    expect(isCrossSite(req({ origin: 'http://dealers.example.com' }), PUBLIC)).toBe(false);
    expect(isCrossSite(req({ 'sec-fetch-site': 'same-origin' }), PUBLIC)).toBe(false);
    expect(isCrossSite(req({ 'sec-fetch-site': 'none' }), PUBLIC)).toBe(false);
    expect(isCrossSite(req({ origin: 'http://10.0.0.5:3000', host: '10.0.0.5:3000' }), PUBLIC)).toBe(false);
  });

  it('refuses other origins, null, look-alikes and cross-site or same-site fetches', () => {
    for (const origin of ['https://evil.example', 'null', 'https://dealers.example.com.evil.example', 'not a url']) {
      expect(isCrossSite(req({ origin }), PUBLIC), origin).toBe(true);
    }
    expect(isCrossSite(req({ 'sec-fetch-site': 'cross-site' }), PUBLIC)).toBe(true);
    expect(isCrossSite(req({ 'sec-fetch-site': 'same-site' }), PUBLIC)).toBe(true);
    expect(isCrossSite(req({ origin: PUBLIC, 'sec-fetch-site': 'cross-site' }), PUBLIC)).toBe(true);
  });
});

describe('containsNul', () => {
  it('finds NUL in strings, keys, nested values and JSON-escaped query text', () => {
    expect(containsNul('a\u0000b')).toBe(true);
    expect(containsNul({ a: [{ b: 'x\u0000' }] })).toBe(true);
    expect(containsNul({ 'k\u0000': 1 })).toBe(true);
    expect(containsNul({ input: '{"username":"\\u0000"}' })).toBe(true);
    expect(containsNul({ a: ['plain', 1, null, true] })).toBe(false);
    expect(containsNul(undefined)).toBe(false);
  });
});
