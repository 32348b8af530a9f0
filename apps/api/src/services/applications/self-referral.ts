import type { Address } from '@dn/db';
import { recruiterFootprint } from '@dn/db/queries/referral-flags';
import type { DealerApplication } from '@dn/schema';
import type { Context } from '../../context';
import { ipKey } from '../../lib/ip-key';
import { sha256 } from '../../lib/tokens';
import { deviceAccount } from '../accounts/devices';

/**
 * Self-referral beyond the mailbox (issue 35, finding 6; decision 0895). A signup at a variant of
 * the recruiter's own mailbox is a duplicate application (decision 0880); any other match with the
 * recruiter attributes the referral but flags it, and its commissions are earned `held` until an
 * owner clears the flag or voids it (commissions/referral-flags.ts).
 */

export type Signal = 'phone' | 'device' | 'ip' | 'address';

const WORDS: Record<Signal, string> = {
  phone: "the recruiter's phone number",
  device: 'a browser the recruiter signed in from (device cookie)',
  ip: 'an address the recruiter signed in from (same IPv4 address or IPv6 /64)',
  address: "the recruiter's business address",
};

/** A phone's national digits: `+1 512…`, `1512…` and `512…` are one number. */
const digits = (p: string) => p.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '');

/** Street, city, state and ZIP as written by anyone: case, spacing and punctuation aside. */
function addressKey(a: Partial<Address> | null | undefined): string | null {
  if (!a?.street || !a.city || !a.zipCode) return null;
  const norm = (v: string | undefined) => (v ?? '').toLowerCase().replace(/[.,#]/g, ' ').replace(/\s+/g, ' ').trim();
  return [norm(a.street), norm(a.city), norm(a.state), norm(a.zipCode).slice(0, 5)].join('|');
}

/** What the signup shares with its recruiter, with the reason an admin reads; null when nothing. */
export async function selfReferralSignals(
  ctx: Context,
  recruiter: { id: string; email: string },
  input: Pick<DealerApplication, 'phoneE164' | 'addressJson'>,
): Promise<{ signals: Signal[]; reason: string } | null> {
  const device = ctx.meta.device ?? null;
  const known = await recruiterFootprint(ctx.db, recruiter.id, device ? sha256(device.id) : null);
  const here = ctx.meta.ip ? ipKey(ctx.meta.ip) : null;
  const signals: Signal[] = [];
  if (known.phoneE164 && digits(known.phoneE164) === digits(input.phoneE164)) signals.push('phone');
  if (device && (known.knownDevice || device.account === deviceAccount('dealer', recruiter.email))) {
    signals.push('device');
  }
  if (here && known.signInIps.some((ip) => ipKey(ip) === here)) signals.push('ip');
  const mine = addressKey(known.addressJson as Partial<Address> | null);
  if (mine && mine === addressKey(input.addressJson)) signals.push('address');
  if (signals.length === 0) return null;
  return { signals, reason: `Signup matches ${signals.map((s) => WORDS[s]).join('; ')}` };
}
