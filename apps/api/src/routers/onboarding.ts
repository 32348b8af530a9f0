import {
  agreementTextInput,
  bookOnboardingCallInput,
  complianceQueueQuery,
  dealerOnboardingQuery,
  inventoryPaymentInput,
  inventorySettingsInput,
  onboardingCallStatusInput,
  onboardingListQuery,
  onboardingSummariesInput,
  rejectComplianceDocumentInput,
  rescheduleOnboardingCallInput,
  signAgreementInput,
  verifyComplianceDocumentInput,
} from '@dn/schema';
import { dealerOnboarding, ownOnboarding } from '../services/onboarding/admin';
import { listAgreements, ownAgreement, setAgreementText, signAgreement } from '../services/onboarding/agreement';
import { bookOwnOnboardingCall, markOnboardingCallStatus, rescheduleByToken } from '../services/onboarding/call';
import { complianceQueue, rejectComplianceDocument, verifyComplianceDocument } from '../services/onboarding/documents';
import { listInventorySettings, recordInventoryPayment, setInventorySettings } from '../services/onboarding/inventory';
import { listOnboardingDealers, onboardingSummaries } from '../services/onboarding/list';
import {
  adminProcedure,
  alone,
  dealerProcedure,
  ownerProcedure,
  publicProcedure,
  rest,
  reviewerProcedure,
  router,
} from '../trpc/init';

/**
 * Onboarding (issue 38): the dealer's checklist, agreement, onboarding call and compliance; the
 * admin's agreement texts, inventory settings and payments, and the call's outcome. The signed
 * agreement's PDF is a file download (http/agreement-pdf.ts).
 */
export const onboardingRouter = router({
  mine: dealerProcedure
    .meta(
      rest(
        'GET',
        '/api/dealer/onboarding',
        'The dealer’s onboarding checklist: the steps of their tier, done or not, with due dates',
      ),
    )
    .query(({ ctx }) => ownOnboarding(ctx)),
  agreement: dealerProcedure
    .meta(
      rest(
        'GET',
        '/api/dealer/agreement',
        'The current dealer agreement of the dealer’s tier and the version they signed',
      ),
    )
    .query(({ ctx }) => ownAgreement(ctx)),
  signAgreement: dealerProcedure
    .meta(alone)
    .meta(
      rest(
        'POST',
        '/api/dealer/agreement/sign',
        'Signs the current agreement version (typed full name, accept: true); emails the signed PDF. 409 for a replaced version',
      ),
    )
    .input(signAgreementInput)
    .mutation(({ ctx, input }) => signAgreement(ctx, input)),
  bookCall: dealerProcedure
    .meta(alone)
    .meta(
      rest(
        'POST',
        '/api/dealer/onboarding-call',
        'Books (or rebooks) the onboarding call on a business day, 9 AM-8 PM Eastern; emails a confirmation with a reschedule link',
        { created: true },
      ),
    )
    .input(bookOnboardingCallInput)
    .mutation(({ ctx, input }) => bookOwnOnboardingCall(ctx, input)),
  rescheduleCall: publicProcedure
    .meta(alone)
    .meta(
      rest(
        'POST',
        '/api/onboarding-call/reschedule',
        'Rebooks an onboarding call with the one-time link of its email, without signing in (410 once used or expired)',
      ),
    )
    .input(rescheduleOnboardingCallInput)
    .mutation(({ ctx, input }) => rescheduleByToken(ctx, input)),
  agreements: adminProcedure
    .meta(rest('GET', '/api/admin/agreements', 'The current dealer agreement text of every tier'))
    .query(({ ctx }) => listAgreements(ctx)),
  setAgreement: ownerProcedure
    .meta(alone)
    .meta(
      rest(
        'PUT',
        '/api/admin/agreements/{tier}',
        'Publishes a new version of a tier’s agreement (Markdown); its dealers are emailed to sign it again',
      ),
    )
    .input(agreementTextInput)
    .mutation(({ ctx, input }) => setAgreementText(ctx, input)),
  dealer: adminProcedure
    .meta(
      rest(
        'GET',
        '/api/admin/dealers/{id}/onboarding',
        'A dealer’s onboarding checklist, agreement signatures and expiry reminders',
      ),
    )
    .input(dealerOnboardingQuery)
    .query(({ ctx, input }) => dealerOnboarding(ctx, input.id)),
  recordPayment: reviewerProcedure
    .meta(
      rest('POST', '/api/admin/dealers/{id}/inventory-payments', 'Records an initial inventory payment', {
        created: true,
      }),
    )
    .input(inventoryPaymentInput)
    .mutation(({ ctx, input }) => recordInventoryPayment(ctx, input)),
  markCall: reviewerProcedure
    .meta(
      rest(
        'POST',
        '/api/admin/dealers/{id}/onboarding-call/status',
        'Marks a dealer’s onboarding call held or a no-show',
      ),
    )
    .input(onboardingCallStatusInput)
    .mutation(({ ctx, input }) => markOnboardingCallStatus(ctx, input)),
  complianceQueue: reviewerProcedure
    .meta(
      rest(
        'GET',
        '/api/admin/compliance/documents',
        'Compliance documents waiting for review (insurance certificates, licences), oldest first, 50 a page',
      ),
    )
    .input(complianceQueueQuery)
    .query(({ ctx, input }) => complianceQueue(ctx, input.page)),
  verifyDocument: reviewerProcedure
    .meta(
      rest(
        'POST',
        '/api/admin/compliance/documents/{id}/verify',
        'Verifies a pending compliance document with a file and an expiry not yet past (once: 409 when already reviewed)',
      ),
    )
    .input(verifyComplianceDocumentInput)
    .mutation(({ ctx, input }) => verifyComplianceDocument(ctx, input.id)),
  rejectDocument: reviewerProcedure
    .meta(alone)
    .meta(
      rest(
        'POST',
        '/api/admin/compliance/documents/{id}/reject',
        'Rejects a pending compliance document with a reason, emailed to the dealer (once: 409 when already reviewed)',
      ),
    )
    .input(rejectComplianceDocumentInput)
    .mutation(({ ctx, input }) => rejectComplianceDocument(ctx, input.id, input.reason)),
  summaries: adminProcedure
    .input(onboardingSummariesInput)
    .query(({ ctx, input }) => onboardingSummaries(ctx, input.ids)),
  dealers: adminProcedure
    .meta(
      rest(
        'GET',
        '/api/admin/onboarding/dealers',
        'Approved dealers whose onboarding is incomplete or overdue (filter), newest approval first, 50 a page',
      ),
    )
    .input(onboardingListQuery)
    .query(({ ctx, input }) => listOnboardingDealers(ctx, input)),
  settings: adminProcedure
    .meta(rest('GET', '/api/admin/onboarding-settings', 'The initial inventory each installer tier pays'))
    .query(({ ctx }) => listInventorySettings(ctx)),
  setSettings: ownerProcedure
    .meta(
      rest(
        'PUT',
        '/api/admin/onboarding-settings/{tier}',
        'Sets a tier’s initial inventory: required and upfront amounts',
      ),
    )
    .input(inventorySettingsInput)
    .mutation(({ ctx, input }) => setInventorySettings(ctx, input)),
});
