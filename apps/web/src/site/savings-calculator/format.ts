import { displayMoney, formatCents } from '@dn/schema';

export const usd = (cents: bigint) => displayMoney(formatCents(cents));
