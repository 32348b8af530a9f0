import { displayMoney, JOB_STATUS_LABELS } from '@dn/schema';
import { Alert, Button, Card, Container, SimpleGrid, Skeleton, Stack, Stepper, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useTrpc } from '../../shared/lib/trpc';
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
        <InstallationAnswer token={token} installation={s.installation} />
        <StatusNext s={s} />
      </Stack>
    </Container>
  );
}

type Installation = {
  amount: string | null;
  answer: 'confirmed' | 'disputed' | null;
  canAnswer: boolean;
};

/**
 * Issue 45: once installed, the homeowner says whether it was done, once. Their answer releases the
 * seller's recruiter's commission (confirmed) or sends the job to the network's team (not completed).
 */
function InstallationAnswer({ token, installation }: { token: string; installation: Installation }) {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const answer = useMutation(
    trpc.jobs.answerInstallation.mutationOptions({
      onSettled: () => queryClient.invalidateQueries({ queryKey: trpc.jobs.statusPage.queryKey({ token }) }),
    }),
  );
  if (installation.answer) {
    return (
      <Alert color={installation.answer === 'confirmed' ? 'green' : 'orange'} data-testid="installation-answer">
        {installation.answer === 'confirmed'
          ? 'Thank you: you confirmed your installation was completed.'
          : 'Thank you: you told us the installation was not completed. Our team will contact you.'}
      </Alert>
    );
  }
  if (!installation.canAnswer) return null;
  return (
    <Card withBorder data-testid="installation-question">
      <Stack gap="sm">
        <Text fw={600}>Was your installation completed?</Text>
        {installation.amount && <Text>Amount {displayMoney(installation.amount)}</Text>}
        {answer.isError && <Alert color="red">{answer.error.message}</Alert>}
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
          <Button loading={answer.isPending} onClick={() => answer.mutate({ token, confirmed: true })}>
            Yes, it was completed
          </Button>
          <Button
            variant="light"
            color="red"
            loading={answer.isPending}
            onClick={() => answer.mutate({ token, confirmed: false })}
          >
            No, it was not
          </Button>
        </SimpleGrid>
      </Stack>
    </Card>
  );
}
