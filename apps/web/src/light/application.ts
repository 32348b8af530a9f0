import { dayLabel } from '@dn/schema';
import { APPLICATION_STAGE_LABELS, type ApplicationStage } from '@dn/schema/status-words';
import { alert, button, CallError, container, h, query, stack, stepper, text, title, tokenOfPage } from './dom';
import { applicationStatusKey } from './keys';
import { takeOverLight } from './take-over';

/**
 * /application/<token> without the app (decision 1160): the prerendered page shows what StatusPage
 * (site/application-status) shows while it loads; this script fetches the status
 * (site.applicationStatus, as the React page does, retried the same way) and draws what StatusPage
 * draws. Book a Call boots the app, which starts from the status fetched here and opens its dialog.
 */
interface Status {
  stage: string;
  fullName: string;
  companyName: string | null;
  tier: string;
  submittedAt: string;
  reviewWithin: string;
  onboardingCallWithin: string;
  nextStep: string;
  decisionExpectedBy: string | null;
  rejectionReason: string | null;
}

const STEP: Record<ApplicationStage, number> = { received: 0, under_review: 1, approved: 3, rejected: 3 };
const dateOf = (iso: string) =>
  new Date(iso).toLocaleDateString('en-US', { month: 'short', day: 'numeric', year: 'numeric' });
const token = tokenOfPage();
const main = document.querySelector<HTMLElement>('#root main');
let fetched: Status | undefined;

takeOverLight({ queries: () => (fetched ? [[applicationStatusKey(token), fetched] as const] : []) });

function draw(s: Status) {
  const stage = s.stage as ApplicationStage;
  return container(
    stack(
      'lg',
      h(
        'div',
        {},
        title(1, 'Your dealer application'),
        text(
          `${s.fullName}${s.companyName ? `, ${s.companyName}` : ''} · ${s.tier} tier · submitted ${dateOf(s.submittedAt)}`,
          { dimmed: true, style: 'margin-top:calc(0.25rem * var(--mantine-scale))' },
        ),
      ),
      h(
        'div',
        {
          style: '--paper-radius:var(--mantine-radius-md);padding:var(--mantine-spacing-lg)',
          class: 'm_1b7284a3 mantine-Paper-root',
          'data-with-border': true,
        },
        text('Status', { size: 'sm', dimmed: true }),
        title(2, APPLICATION_STAGE_LABELS[stage], undefined, { 'data-testid': 'application-stage' }),
        stepper(
          STEP[stage],
          [
            { label: 'Received', description: `Submitted ${dateOf(s.submittedAt)}` },
            { label: 'Under review', description: `Within ${s.reviewWithin}` },
            {
              label: stage === 'rejected' ? 'Rejected' : 'Approved',
              description: stage === 'approved' ? `Onboarding call within ${s.onboardingCallWithin}` : null,
              ...(stage === 'rejected' ? { color: 'red' } : {}),
            },
          ],
          { 'aria-label': 'Application progress' },
        ),
      ),
      stage === 'rejected' &&
        s.rejectionReason &&
        alert('red', s.rejectionReason, {
          title: 'Reason given by our team',
          attrs: { 'data-testid': 'rejection-reason' },
        }),
      h(
        'section',
        { 'aria-labelledby': 'next' },
        title(2, 'What happens next', 'h3', { id: 'next' }),
        text(s.nextStep, { style: 'margin-top:var(--mantine-spacing-xs)' }),
        s.decisionExpectedBy &&
          h(
            'p',
            {
              style: 'margin-top:var(--mantine-spacing-xs);font-weight:600',
              class: 'mantine-focus-auto m_b6d8b162 mantine-Text-root',
              'data-testid': 'decision-expected-by',
            },
            `Decision expected by ${dayLabel(s.decisionExpectedBy)}.`,
          ),
        text(
          `We review applications within ${s.reviewWithin}; approved dealers have their onboarding call within ${s.onboardingCallWithin}.`,
          { size: 'sm', dimmed: true, style: 'margin-top:var(--mantine-spacing-xs)' },
        ),
      ),
      h('div', {}, button('Book a Call')),
    ),
  );
}

function notFound(message: string) {
  return container(
    title(1, 'Application status'),
    alert('red', message, {
      title: 'Link not found',
      style: 'margin-top:var(--mantine-spacing-md)',
      attrs: { 'data-testid': 'status-not-found' },
    }),
  );
}

async function load() {
  if (!main) return;
  // As the React page: up to two retries, none for a 404 (a revoked or unknown link).
  for (let attempt = 0; ; attempt++) {
    try {
      const s = await query<Status>('site.applicationStatus', { token });
      fetched = s;
      main.replaceChildren(draw(s));
      return;
    } catch (err) {
      const status = err instanceof CallError ? err.status : 0;
      if (attempt < 2 && status !== 404) {
        await new Promise((r) => setTimeout(r, 1000 * 2 ** attempt));
        continue;
      }
      main.replaceChildren(notFound(err instanceof Error ? err.message : String(err)));
      return;
    }
  }
}
void load();
