import type { AppRouter } from '@dn/api';
import type { inferRouterOutputs } from '@trpc/server';

type Out = inferRouterOutputs<AppRouter>['admin'];
export type DealerItem = Out['dealers']['items'][number];
export type DealerPage = Out['dealers'];
export type CallItem = Out['callSchedules'][number];
export type FormConfig = Out['firstOrderForms'][number];
export type VideoConfig = Out['landingVideos'][number];
export type Tracking = Out['affiliateTracking'];
