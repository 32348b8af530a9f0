import type { Migration } from 'kysely/migration';
import * as m0001 from './2026-11-21-0001-initial';
import * as m0300 from './2026-11-21-0300-admin-search';
import * as m0301 from './2026-11-21-0301-admin-export-and-counts';
import * as m0302 from './2026-11-21-0302-admin-tracking-index';
import * as m0303 from './2026-11-21-0303-dealer-counts';
import * as m0304 from './2026-11-21-0304-drop-csv-cell';
import * as m0600 from './2026-11-24-0600-partner-program';
import * as m0610 from './2026-11-24-0610-admin-roles';
import * as m0620 from './2026-11-24-0620-admin-actions';
import * as m0640 from './2026-11-24-0640-self-service';
import * as m0652 from './2026-11-24-0652-outbox-order';
import * as m0654 from './2026-11-24-0654-audit-index-order';
import * as m0720 from './2026-11-24-0720-dealer-first-order';
import * as m0740 from './2026-11-24-0740-commission-ledger-indexes';
import * as m0741 from './2026-11-24-0741-commission-totals';
import * as m0750 from './2026-11-24-0750-first-order-days';
import * as m0800 from './2026-11-24-0800-dealer-counts-shards';
import * as m0900 from './2026-11-26-0900-call-counts';
import * as m0910 from './2026-11-26-0910-recruiter-commission-totals';
import * as m0920 from './2026-11-26-0920-referrals-recent-index';
import * as m0930 from './2026-11-26-0930-redundant-indexes';
import * as m0940 from './2026-11-26-0940-busiest-recruiters-index';
import * as m0950 from './2026-11-26-0950-referral-versions';
import * as m0960 from './2026-11-26-0960-admin-versions';
import * as m0970 from './2026-11-27-0970-referral-versions-without-joins';
import * as m0980 from './2026-11-27-0980-dealer-search-text';
import * as m0990 from './2026-11-27-0990-outbox-queue-order';
import * as m1000 from './2026-11-27-1000-bump-functions-plpgsql';
import * as m1010 from './2026-11-27-1010-email-sort-index';
import * as m0860 from './2026-11-28-0860-ledger-payable';
import * as m0880 from './2026-11-28-0880-mailbox-and-devices';
import * as m0885 from './2026-11-28-0885-referral-picker-opt-out';
import * as m1128_0910 from './2026-11-28-0910-order-events';
import * as m0920flags from './2026-11-28-0920-referral-flags';
import * as m2000jobs from './2026-11-28-2000-installation-network';
import * as m2200 from './2026-11-28-2200-scheduler';
import * as m2210 from './2026-11-28-2210-review-promises';
import * as m2300 from './2026-11-28-2300-onboarding';
import * as m2400payees from './2026-11-28-2400-payees';
import * as m2410held from './2026-11-28-2410-payout-held';
import * as m2500 from './2026-11-28-2500-system-samples-and-backups';
import * as m2600 from './2026-11-28-2600-api-tokens';
import * as m2610 from './2026-11-28-2610-mail-priority-and-preferences';
import * as m2700claims from './2026-11-28-2700-homeowner-claims';
import * as m2710hooks from './2026-11-28-2710-webhook-deliveries';
import * as m2800gate from './2026-11-28-2800-installer-gate-plpgsql';
import * as m2900point from './2026-11-28-2900-routing-speed';
import * as m3000jobamount from './2026-11-29-3000-job-amount-evidence';
import * as m3100docs from './2026-11-29-3100-compliance-documents';
import * as m3200trust from './2026-11-29-3200-payout-trust';
import * as m3300backupVerify from './2026-11-29-3300-backup-verification';
import * as m3600remind from './2026-11-29-3600-offer-reminders';
import * as m4000reviews from './2026-11-29-4000-job-reviews';
import * as m4100scores from './2026-11-29-4100-installer-scores';
import * as m4200jobversions from './2026-11-29-4200-job-versions';
import * as m4210sellerOffers from './2026-11-29-4210-job-versions-seller-offers';
import * as m4400outboxSeq from './2026-11-29-4400-outbox-sequence';
import * as m4500routingWalk from './2026-11-29-4500-routing-walk';

// A static list (not a folder scan) so the bundled server carries its migrations.
export const migrations: Record<string, Migration> = {
  '2026-11-21-0001-initial': m0001,
  '2026-11-21-0300-admin-search': m0300,
  '2026-11-21-0301-admin-export-and-counts': m0301,
  '2026-11-21-0302-admin-tracking-index': m0302,
  '2026-11-21-0303-dealer-counts': m0303,
  '2026-11-21-0304-drop-csv-cell': m0304,
  '2026-11-24-0600-partner-program': m0600,
  '2026-11-24-0610-admin-roles': m0610,
  '2026-11-24-0620-admin-actions': m0620,
  '2026-11-24-0640-self-service': m0640,
  '2026-11-24-0652-outbox-order': m0652,
  '2026-11-24-0654-audit-index-order': m0654,
  '2026-11-24-0720-dealer-first-order': m0720,
  '2026-11-24-0740-commission-ledger-indexes': m0740,
  '2026-11-24-0741-commission-totals': m0741,
  '2026-11-24-0750-first-order-days': m0750,
  '2026-11-24-0800-dealer-counts-shards': m0800,
  '2026-11-26-0900-call-counts': m0900,
  '2026-11-26-0910-recruiter-commission-totals': m0910,
  '2026-11-26-0920-referrals-recent-index': m0920,
  '2026-11-26-0930-redundant-indexes': m0930,
  '2026-11-26-0940-busiest-recruiters-index': m0940,
  '2026-11-26-0950-referral-versions': m0950,
  '2026-11-26-0960-admin-versions': m0960,
  '2026-11-27-0970-referral-versions-without-joins': m0970,
  '2026-11-27-0980-dealer-search-text': m0980,
  '2026-11-27-0990-outbox-queue-order': m0990,
  '2026-11-27-1000-bump-functions-plpgsql': m1000,
  '2026-11-27-1010-email-sort-index': m1010,
  '2026-11-28-0860-ledger-payable': m0860,
  '2026-11-28-0880-mailbox-and-devices': m0880,
  '2026-11-28-0885-referral-picker-opt-out': m0885,
  '2026-11-28-0910-order-events': m1128_0910,
  '2026-11-28-0920-referral-flags': m0920flags,
  '2026-11-28-2200-scheduler': m2200,
  '2026-11-28-2210-review-promises': m2210,
  '2026-11-28-2300-onboarding': m2300,
  '2026-11-28-2600-api-tokens': m2600,
  '2026-11-28-2610-mail-priority-and-preferences': m2610,
  '2026-11-28-2500-system-samples-and-backups': m2500,
  '2026-11-28-2400-payees': m2400payees,
  '2026-11-28-2410-payout-held': m2410held,
  '2026-11-28-2000-installation-network': m2000jobs,
  '2026-11-28-2700-homeowner-claims': m2700claims,
  '2026-11-28-2710-webhook-deliveries': m2710hooks,
  '2026-11-28-2800-installer-gate-plpgsql': m2800gate,
  '2026-11-28-2900-routing-speed': m2900point,
  '2026-11-29-3300-backup-verification': m3300backupVerify,
  '2026-11-29-3200-payout-trust': m3200trust,
  '2026-11-29-3100-compliance-documents': m3100docs,
  '2026-11-29-3000-job-amount-evidence': m3000jobamount,
  '2026-11-29-3600-offer-reminders': m3600remind,
  '2026-11-29-4000-job-reviews': m4000reviews,
  '2026-11-29-4200-job-versions': m4200jobversions,
  '2026-11-29-4210-job-versions-seller-offers': m4210sellerOffers,
  '2026-11-29-4400-outbox-sequence': m4400outboxSeq,
  '2026-11-29-4100-installer-scores': m4100scores,
  '2026-11-29-4500-routing-walk': m4500routingWalk,
};
