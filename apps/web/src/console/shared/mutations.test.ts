import { ADMIN_MESSAGES } from '@dn/schema';
import { describe, expect, it } from 'vitest';
import type { Trpc } from '../../shared/lib/trpc';
import { ADMIN_MUTATIONS } from './mutations';

/** A stand-in for the options proxy's path keys only: `trpc.orders.pathKey()` is [['orders']]. */
const trpc = new Proxy({}, { get: (_, domain) => ({ pathKey: () => [[String(domain)]] }) }) as unknown as Trpc;

describe('ADMIN_MUTATIONS', () => {
  it('an order, recorded, imported, cancelled or refunded, refreshes the ledger it earns into', () => {
    for (const name of ['recordOrder', 'importOrders', 'setOrderStatus'] as const) {
      const keys = ADMIN_MUTATIONS[name].invalidates(trpc);
      for (const domain of ['orders', 'admin', 'commissions']) expect(keys, name).toContainEqual([[domain]]);
    }
  });

  it('a dealer decision refreshes the lists and the activity log it writes to', () => {
    for (const name of ['approve', 'reject', 'setStatus', 'setTier', 'bulkStart', 'undo'] as const) {
      expect(ADMIN_MUTATIONS[name].invalidates(trpc), name).toEqual(
        expect.arrayContaining([[['admin']], [['activity']]]),
      );
    }
  });

  it("every admin mutation fails in the spec's words, written once in @dn/schema", () => {
    const failures = new Set<string>(
      Object.values(ADMIN_MESSAGES).flatMap((m) => (typeof m === 'object' && 'failure' in m ? [m.failure] : [])),
    );
    for (const [name, spec] of Object.entries(ADMIN_MUTATIONS)) expect(failures.has(spec.failure), name).toBe(true);
  });
});
