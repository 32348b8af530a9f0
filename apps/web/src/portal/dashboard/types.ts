import type { AppRouter } from '@dn/api';
import type { inferRouterOutputs } from '@trpc/server';

type Outputs = inferRouterOutputs<AppRouter>;
export type DealerInfo = Outputs['account']['info'];
export type FirstOrderForm = Outputs['account']['firstOrderForm'];
export type AffiliateStats = Outputs['account']['affiliateStats'];
export type OwnOrders = Outputs['account']['orders'];
export type OwnReferrals = Outputs['account']['referrals'];
export type ReferralFunnel = Outputs['account']['referralFunnel'];
