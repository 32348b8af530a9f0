import { displayMoney, formatPhone, HOMEOWNER_WORDS as H, homeownerNextLines, telHref } from '@dn/schema';
import { JOB_STATUS_LABELS, type JobStatus } from '@dn/schema/status-words';
import { alert, anchor, button, CallError, container, h, query, stack, stepper, text, title, tokenOfPage } from './dom';
import { installationStatusKey } from './keys';
import { takeOverLight } from './take-over';

/**
 * /quote/<token> without the app (decision 1160): the prerendered page shows what StatusView shows
 * while it loads; this script fetches the status (jobs.statusPage, as the React page does) and draws
 * what StatusView, StatusNext and InstallationAnswer draw (site/jobs). The installation question's
 * buttons, and any part of the status this script does not know (a later feature's), boot the app,
 * which starts from the status fetched here.
 */
interface Status {
  status: JobStatus;
  city: string;
  state: string;
  zipCode: string;
  receivedAt: string;
  scheduledFor: string | null;
  installedAt: string | null;
  answerBy?: string | null;
  contactEmail?: string | null;
  installer: { company: string; phone: string } | null;
  installation: { amount: string | null; answer: 'confirmed' | 'disputed' | null; canAnswer: boolean };
}
/** The fields this page draws (or may ignore): a status with any other field set goes to the app. */
const KNOWN = new Set([
  'status',
  'city',
  'state',
  'zipCode',
  'receivedAt',
  'acceptedAt',
  'scheduledFor',
  'installedAt',
  'installer',
  'installation',
  'answerBy',
  'contactEmail',
]);

const day = (iso: string) => new Date(iso).toLocaleDateString('en-US', { dateStyle: 'medium' });
const token = tokenOfPage();
const main = document.querySelector<HTMLElement>('#root main');
let fetched: Status | undefined;

const takeOver = takeOverLight({
  queries: () => (fetched ? [[installationStatusKey(token), fetched] as const] : []),
});

function draw(s: Status) {
  const step = s.status === 'installed' ? 4 : s.status === 'scheduled' ? 2 : s.installer ? 1 : 0;
  return container(
    stack(
      'md',
      title(1, 'Your installation'),
      h(
        'p',
        { class: 'mantine-focus-auto m_b6d8b162 mantine-Text-root', 'data-testid': 'installation-status' },
        `${JOB_STATUS_LABELS[s.status]} · ${s.city}, ${s.state} ${s.zipCode}`,
      ),
      s.status === 'cancelled'
        ? alert('gray', 'This installation was cancelled.')
        : stepper(step, [
            { label: 'Request received', description: day(s.receivedAt) },
            {
              label: 'Installer assigned',
              description: s.installer ? s.installer.company : 'Finding an installer near you',
            },
            { label: 'Scheduled', description: s.scheduledFor ? day(`${s.scheduledFor}T12:00:00Z`) : '' },
            { label: 'Installed', description: s.installedAt ? day(s.installedAt) : '' },
          ]),
      answer(s.installation),
      next(s),
    ),
  );
}

const card = (testId: string, ...children: (Node | false | null)[]) =>
  h(
    'div',
    {
      class: 'm_e615b15f mantine-Card-root m_1b7284a3 mantine-Paper-root',
      'data-with-border': true,
      'data-orientation': 'vertical',
      'data-testid': testId,
    },
    ...children,
  );

/** InstallationAnswer: its buttons boot the app (the click is replayed on the React ones). */
function answer(i: Status['installation']) {
  if (i.answer)
    return alert(
      i.answer === 'confirmed' ? 'green' : 'orange',
      i.answer === 'confirmed'
        ? 'Thank you: you confirmed your installation was completed.'
        : 'Thank you: you told us the installation was not completed. Our team will contact you.',
      { attrs: { 'data-testid': 'installation-answer' } },
    );
  if (!i.canAnswer) return null;
  return card(
    'installation-question',
    stack(
      'sm',
      text('Was your installation completed?', { style: 'font-weight:600' }),
      i.amount ? text(`Amount ${displayMoney(i.amount)}`) : null,
      // SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm", as Mantine writes it.
      h(
        'style',
        {},
        '.light-answer-grid{--sg-spacing-x:var(--mantine-spacing-sm);--sg-spacing-y:var(--mantine-spacing-sm);--sg-cols:1}@media(min-width:36em){.light-answer-grid{--sg-cols:2}}',
      ),
      h(
        'div',
        { class: 'm_2415a157 mantine-SimpleGrid-root light-answer-grid' },
        button('Yes, it was completed'),
        button('No, it was not', { variant: 'light', color: 'red' }),
      ),
    ),
  );
}

/** StatusNext: by when an installer answers, what if nobody does, whom to ask. */
function next(s: Status) {
  const lines = homeownerNextLines(s);
  return card(
    'status-next',
    stack(
      'xs',
      title(2, s.installer ? 'Your installer' : 'What happens next', 'h4'),
      s.installer &&
        text([`${s.installer.company} · `, anchor(telHref(s.installer.phone), formatPhone(s.installer.phone))]),
      ...lines.map((line) => text(line, { size: 'sm' })),
      s.installer &&
        s.status !== 'installed' &&
        s.status !== 'cancelled' &&
        text(H.callInstaller(s.installer.company), { size: 'sm' }),
      s.contactEmail
        ? text([`${H.questions} Email our team at `, anchor(`mailto:${s.contactEmail}`, s.contactEmail), '.'], {
            size: 'sm',
          })
        : text("We email you at each step. Keep this page's link to come back at any time.", {
            size: 'sm',
            dimmed: true,
          }),
    ),
  );
}

async function load() {
  if (!main) return;
  try {
    const s = await query<Status & Record<string, unknown>>('jobs.statusPage', { token });
    fetched = s;
    main.replaceChildren(draw(s));
    // A field with something to show (the homeowner's review, or `canReview: true`, issue 50) is the
    // app's to draw; false, null or absent shows nothing.
    const unknown = Object.entries(s).some(([k, v]) => !KNOWN.has(k) && v !== null && v !== undefined && v !== false);
    if (unknown) takeOver?.bootNow();
  } catch (err) {
    main.replaceChildren(alert('red', err instanceof CallError || err instanceof Error ? err.message : String(err)));
  }
}
void load();
