import type { DB, Kysely } from '@dn/db';
import { resealProfile, sealedProfiles } from '@dn/db/queries/payees';
import { resealPayoutPayee, sealedPayoutPayees } from '@dn/db/queries/payouts';
import { fingerprint, type Keyring, open, seal } from '../../lib/vault';

/**
 * `pnpm keys:rotate` (decision 0961): every sealed TIN and account number is opened with whichever
 * key of `ring` sealed it and sealed again with `ring.current`, and its keyed hash recomputed, in
 * one transaction: after it, the old keys open nothing in the database.
 */
export async function rotateKeys(db: Kysely<DB>, ring: Keyring) {
  return db.transaction().execute(async (trx) => {
    let values = 0;
    const rows = await sealedProfiles(trx);
    for (const r of rows) {
      const tin = open(ring, r.tinEnc);
      const account = r.accountEnc ? open(ring, r.accountEnc) : null;
      await resealProfile(trx, r.dealerId, {
        tinEnc: seal(ring, tin),
        tinHash: fingerprint(ring, 'tin', tin),
        accountEnc: account === null ? null : seal(ring, account),
        accountHash: account === null ? null : fingerprint(ring, 'account', `${r.routingNumber}:${account}`),
      });
      values += account === null ? 1 : 2;
    }
    // Issue 45: the account numbers kept with each batch (payout_payees) too.
    for (const k of await sealedPayoutPayees(trx)) {
      if (!k.accountEnc) continue;
      await resealPayoutPayee(trx, k.payoutId, k.recruiterDealerId, seal(ring, open(ring, k.accountEnc)));
      values += 1;
    }
    return { profiles: rows.length, values, keyId: ring.current.id };
  });
}
