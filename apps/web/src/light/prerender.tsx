import { cssVariablesResolver, theme } from '@dn/ui';
import { Alert, Button, Checkbox, MantineProvider, Stack, Textarea, TextInput } from '@mantine/core';
import type { QueryClient } from '@tanstack/react-query';
import { createMemoryHistory } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { prerenderToNodeStream } from 'react-dom/static';
import { createAppRouter } from '../app';
import { App } from '../frame';
import { createQueryClient } from '../shared/lib/query-client';
import { ME_QUERY_KEY } from '../shared/lib/query-keys';
import { createRouterContext } from '../shared/lib/router-context';
import { getTrpc } from '../shared/lib/trpc';
import { applicationStatusKey, installationStatusKey } from './keys';

/**
 * Build time only (vite/prerender-light.ts, decision 1160): the homeowner's and the applicant's
 * pages rendered by the app itself, as a visitor who is not signed in sees them first: the quote
 * form, and the two status pages while their status loads (the token is private: no status is in
 * the HTML). Besides, "specimens" that are never served: the same pages with a status of each kind,
 * and the form's controls showing an error, so the pruned CSS holds every rule the pages' scripts
 * (src/light/*.ts) use when they fill a status in or show a field's error.
 */

/** A token of the right shape that names nothing: the render never fetches (no effects run). */
const SAMPLE_TOKEN = 'prerender-sample-token-0000000000000000000000';

async function html(node: ReactNode): Promise<string> {
  // One piece: React would otherwise split a large page and join it with inline scripts (CSP).
  const { prelude } = await prerenderToNodeStream(node, { progressiveChunkSize: Number.POSITIVE_INFINITY });
  let out = '';
  for await (const chunk of prelude) out += chunk.toString();
  return out;
}

async function renderAt(path: string, seed: (queryClient: QueryClient) => void = () => {}): Promise<string> {
  const queryClient = createQueryClient();
  queryClient.setQueryData(ME_QUERY_KEY, null);
  seed(queryClient);
  const router = createAppRouter({
    context: createRouterContext(queryClient),
    history: createMemoryHistory({ initialEntries: [path] }),
  });
  await router.load();
  return html(<App router={router} queryClient={queryClient} />);
}

const day = '2026-11-20T15:00:00.000Z';
/** Every branch of the installation page: stepper states, the question, the answers, the next steps. */
const INSTALLATIONS = [
  {
    status: 'offered',
    installer: null,
    answerBy: day,
    contactEmail: 'team@example.com',
    installation: { amount: null, answer: null, answeredAt: null, canAnswer: false },
  },
  {
    status: 'installed',
    installer: { company: 'Sun Attic Co', phone: '+15125550100' },
    scheduledFor: '2026-11-21',
    installedAt: day,
    contactEmail: null,
    installation: { amount: '1234.50', answer: null, answeredAt: null, canAnswer: true },
  },
  {
    status: 'installed',
    installer: { company: 'Sun Attic Co', phone: '+15125550100' },
    installedAt: day,
    installation: { amount: '1234.50', answer: 'disputed', answeredAt: day, canAnswer: false },
  },
  { status: 'cancelled', installer: null, installation: { amount: null, answer: null, canAnswer: false } },
].map((s) => ({
  city: 'Austin',
  state: 'TX',
  zipCode: '78701',
  receivedAt: day,
  acceptedAt: null,
  scheduledFor: null,
  installedAt: null,
  answerBy: null,
  contactEmail: null,
  ...s,
}));

const APPLICATIONS = (['under_review', 'approved', 'rejected'] as const).map((stage) => ({
  stage,
  fullName: 'Jane Doe',
  companyName: 'Doe Solar',
  tier: 'Authorized',
  submittedAt: day,
  reviewWithin: '2 business days',
  onboardingCallWithin: '3 business days',
  nextStep: 'Our team reviews your application.',
  decisionExpectedBy: '2026-11-24',
  rejectionReason: stage === 'rejected' ? 'Outside our service area' : null,
  booking: { fullName: 'Jane Doe', email: 'jane@example.com', phone: '5125550100' },
}));

/** The quote form's controls in the states its script puts them in (an error, sending). */
function FormSpecimen() {
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver}>
      <Stack>
        <TextInput label="Specimen" withAsterisk error="Specimen error" />
        <Textarea label="Specimen" error="Specimen error" />
        <Checkbox label="Specimen" error="Specimen error" />
        <Alert color="red">Specimen</Alert>
        <Alert color="green" title="Specimen" role="status">
          Specimen
        </Alert>
        <Button loading>Specimen</Button>
      </Stack>
    </MantineProvider>
  );
}

export interface LightPages {
  quote: string;
  installation: string;
  application: string;
  /** Never served: markup whose CSS the pages' scripts need. */
  specimens: string[];
}

export async function renderLightPages(): Promise<LightPages> {
  // The keys the pages' scripts seed when the app takes over must be the app's own.
  const trpc = getTrpc({ queryClient: createQueryClient(), trpc: {} });
  const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
  if (!same(trpc.jobs.statusPage.queryKey({ token: SAMPLE_TOKEN }), installationStatusKey(SAMPLE_TOKEN)))
    throw new Error('prerender-light: installationStatusKey is not the app query key');
  if (!same(trpc.site.applicationStatus.queryKey({ token: SAMPLE_TOKEN }), applicationStatusKey(SAMPLE_TOKEN)))
    throw new Error('prerender-light: applicationStatusKey is not the app query key');

  const specimens = [
    await html(<FormSpecimen />),
    ...(await Promise.all(
      INSTALLATIONS.map((s) =>
        renderAt(`/quote/${SAMPLE_TOKEN}`, (q) => q.setQueryData(installationStatusKey(SAMPLE_TOKEN), s)),
      ),
    )),
    ...(await Promise.all(
      APPLICATIONS.map((s) =>
        renderAt(`/application/${SAMPLE_TOKEN}`, (q) => q.setQueryData(applicationStatusKey(SAMPLE_TOKEN), s)),
      ),
    )),
  ];
  return {
    quote: await renderAt('/quote'),
    installation: await renderAt(`/quote/${SAMPLE_TOKEN}`),
    application: await renderAt(`/application/${SAMPLE_TOKEN}`),
    specimens,
  };
}
