import { createAffiliateLink, resetPassword, setupPassword } from '@dn/schema';
import { dealerFirstOrderForm, dealerInfo, requestPasswordReset, setupPasswordWithToken } from '../services/account';
import { affiliateStats, createLink } from '../services/affiliate-links';
import type { User } from '../trpc/context';
import { defineRoute, type RestRoute } from './route';

/** Accounts and the dealer portal (issue: accounts). The 'dealer' scope refuses everyone else. */
export const accountRoutes: RestRoute[] = [
  defineRoute({
    method: 'POST',
    url: '/api/dealer/setup-password',
    access: 'public',
    summary: 'Sets the password from an emailed link and signs the dealer in',
    input: setupPassword,
    handler: (ctx, input) => setupPasswordWithToken(ctx, input),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/dealer/reset-password',
    access: 'public',
    summary: 'Emails a password link to a dealer who may sign in; the same answer for any address',
    input: resetPassword,
    handler: (ctx, input) => requestPasswordReset(ctx, input),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/dealer/info',
    access: 'dealer',
    summary: "The signed-in dealer's own details",
    handler: (ctx) => dealerInfo({ ...ctx, user: ctx.user as User }),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/first-order-forms',
    access: 'dealer',
    summary: "The first-order form of the signed-in dealer's tier",
    handler: (ctx) => dealerFirstOrderForm({ ...ctx, user: ctx.user as User }),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/affiliate/create-link',
    access: 'dealer',
    summary: "Creates the signed-in dealer's affiliate link (409 when the recruiter id is taken)",
    input: createAffiliateLink,
    handler: (ctx, input) => createLink({ ...ctx, user: ctx.user as User }, input),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/affiliate/stats',
    access: 'dealer',
    summary: "The signed-in dealer's affiliate link and 5 most recent referrals",
    handler: (ctx) => affiliateStats({ ...ctx, user: ctx.user as User }),
  }),
];
