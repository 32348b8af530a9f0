import type { AppRouter } from '@dn/api';
import type { inferRouterOutputs } from '@trpc/server';

type Out = inferRouterOutputs<AppRouter>['admin'];
export type DealerItem = Out['dealers']['items'][number];
export type DealerPage = Out['dealers'];
/** What a decision needs of a dealer: a row of the table, or the detail view's dealer (issue 36). */
export type DecisionDealer = Pick<
  DealerItem,
  'id' | 'fullName' | 'email' | 'tier' | 'status' | 'accessGranted' | 'rejectionReason'
>;
export type CallItem = Out['callSchedules'][number];
export type FormConfig = Out['firstOrderForms'][number];
export type VideoConfig = Out['landingVideos'][number];
export type Tracking = Out['affiliateTracking'];
