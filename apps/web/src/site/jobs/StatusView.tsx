import { JOB_STATUS_LABELS } from '@dn/schema';
import { Alert, Container, Skeleton, Stack, Stepper, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTrpc } from '../../shared/lib/trpc';
import { InstallationAnswer } from './InstallationAnswer';
import { StatusNext } from './StatusNext';

const day = (iso: string) => new Date(iso).toLocaleDateString('en-US', { dateStyle: 'medium' });

/** The homeowner's installation status page (/installation/$token): the same steps as the emails. */
export function StatusView({ token }: { token: string }) {
  const trpc = useTrpc();
  const q = useQuery(trpc.jobs.statusPage.queryOptions({ token }, { retry: false }));
  if (q.isPending) return <Skeleton h={200} />;
  if (q.isError) return <Alert color="red">{q.error.message}</Alert>;
  const s = q.data;
  const step = s.status === 'installed' ? 4 : s.status === 'scheduled' ? 2 : s.installer ? 1 : 0;
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1}>Your installation</Title>
        <Text data-testid="installation-status">
          {JOB_STATUS_LABELS[s.status]} · {s.city}, {s.state} {s.zipCode}
        </Text>
        {s.status === 'cancelled' ? (
          <Alert color="gray">This installation was cancelled.</Alert>
        ) : (
          <Stepper active={step} orientation="vertical" size="sm">
            <Stepper.Step label="Request received" description={day(s.receivedAt)} />
            <Stepper.Step
              label="Installer assigned"
              description={s.installer ? s.installer.company : 'Finding an installer near you'}
            />
            <Stepper.Step label="Scheduled" description={s.scheduledFor ? day(`${s.scheduledFor}T12:00:00Z`) : ''} />
            <Stepper.Step label="Installed" description={s.installedAt ? day(s.installedAt) : ''} />
          </Stepper>
        )}
        <InstallationAnswer token={token} installation={s.installation} review={s.review} canReview={s.canReview} />
        <StatusNext s={s} />
      </Stack>
    </Container>
  );
}
