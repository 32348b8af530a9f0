// Issue 39, for the bench's `payees` stage (bench/stages/payees.mjs): builds the NACHA file and the
// check register of a batch of N payees (default 10,000), ROUNDS times in one process, and prints
// one JSON line: the time of each build and the heap and RSS after each (memory flat: no growth
// from one build to the next). Run with tsx from apps/api (the services' own code, not a copy).
import { buildAchFile, buildCheckRegister } from '../src/services/payees/files';

const n = Number(process.argv[2] ?? 10_000);
const rounds = Number(process.argv[3] ?? 3);
const settings = {
  companyName: 'Dealer Network',
  companyId: '1123456789',
  originatingRouting: '011000015',
  originatingBankName: 'First Test Bank',
};
const runs = [];
for (let r = 0; r < rounds; r++) {
  const payees = Array.from({ length: n }, (_, i) => ({
    recruiterId: `rec${i}`,
    name: `Payee Number ${i}`,
    individual: i % 3 !== 0,
    routingNumber: '021000021',
    accountNumber: String(10_000_000 + i),
    accountType: i % 7 === 0 ? ('savings' as const) : ('checking' as const),
    amount: `${(i % 4999) + 1}.${String(i % 100).padStart(2, '0')}`,
  }));
  const t0 = performance.now();
  const ach = await buildAchFile(settings, payees, { now: new Date(), reference: 'BENCH' });
  const t1 = performance.now();
  const checks = buildCheckRegister(
    '00000000-0000-4000-8000-000000000000',
    payees.map((p) => ({
      recruiterId: p.recruiterId,
      name: p.name,
      address: { street: '1 Main St', city: 'Austin', state: 'TX', zipCode: '78701' },
      amount: p.amount,
    })),
  );
  const t2 = performance.now();
  globalThis.gc?.();
  const m = process.memoryUsage();
  runs.push({
    achMs: Math.round(t1 - t0),
    checksMs: Math.round(t2 - t1),
    totalMs: Math.round(t2 - t0),
    achBytes: ach.length,
    checkBytes: checks.length,
    heapMb: Math.round(m.heapUsed / 1e6),
    rssMb: Math.round(m.rss / 1e6),
  });
}
process.stdout.write(`${JSON.stringify({ payees: n, runs })}\n`);
