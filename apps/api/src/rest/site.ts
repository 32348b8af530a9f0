import { dealerApplication, scheduleCall, trackEvent, trackSignup } from '@dn/schema';
import { scheduleCall as bookCall } from '../services/calls';
import { signup } from '../services/signup';
import { landingVideos, publicDealers } from '../services/site-content';
import { trackReferralEvent, trackReferralSignup } from '../services/tracking';
import { defineRoute, type RestRoute } from './route';

/** Public site: signup, call booking, tracking, videos, public dealer list (issue: public site). */
export const siteRoutes: RestRoute[] = [
  defineRoute({
    method: 'POST',
    url: '/api/schedule-call',
    access: 'public',
    summary: 'Books a free 15-minute call; emails a confirmation with an .ics file',
    input: scheduleCall,
    handler: (ctx, input) => bookCall(ctx, input),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/dealer-signup',
    access: 'public',
    summary: 'Submits a dealer application (stored as pending)',
    input: dealerApplication,
    handler: (ctx, input) => signup(ctx, input),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/affiliate/track-event',
    access: 'public',
    summary: 'Records a referral event (cookie_set, url_capture) in the audit trail',
    input: trackEvent,
    handler: (ctx, input) => trackReferralEvent(ctx, input),
  }),
  defineRoute({
    method: 'POST',
    url: '/api/affiliate/track-signup',
    access: 'public',
    summary: 'Records a referred signup in the audit trail',
    input: trackSignup,
    handler: (ctx, input) => trackReferralSignup(ctx, input),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/dealers/public',
    access: 'public',
    summary: 'Approved and active dealers for the referral picker (id, fullName, companyName)',
    handler: (ctx) => publicDealers(ctx),
  }),
  defineRoute({
    method: 'GET',
    url: '/api/landing-videos',
    access: 'public',
    summary: 'Landing videos with the extracted Vimeo player URL (never the raw embed code)',
    handler: (ctx) => landingVideos(ctx),
  }),
];
