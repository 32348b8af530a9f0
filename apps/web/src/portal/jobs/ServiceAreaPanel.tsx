import { EXPIRED_PAUSE_WORDS, serviceAreaSummary } from '@dn/schema';
import { Alert, Button, Group, Skeleton, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import classes from '../../shared/jobs/jobs.module.css';
import { useTrpc } from '../../shared/lib/trpc';
import ServiceAreaForm from './ServiceAreaForm';

/**
 * The installer's own picture of where jobs come from (issue 47): once saved, a sentence ("You
 * receive jobs within 60 miles of North Pole, AK; up to 5 a week") with Edit, not the open form.
 */
export default function ServiceAreaPanel() {
  const trpc = useTrpc();
  const area = useQuery(trpc.jobs.serviceArea.queryOptions());
  const [editing, setEditing] = useState(false);
  const queryClient = useQueryClient();
  // Issue 50: routing paused the area after offers expired in a row; the installer resumes it here.
  const resume = useMutation(
    trpc.jobs.resumeServiceArea.mutationOptions({
      onSuccess: (r) => {
        queryClient.setQueryData(trpc.jobs.serviceArea.queryKey(), r);
        notifications.show({
          title: EXPIRED_PAUSE_WORDS.resumed,
          message: EXPIRED_PAUSE_WORDS.resumedMessage,
          color: 'green',
        });
      },
      onError: (error) => notifications.show({ title: 'Not resumed', message: error.message, color: 'red' }),
    }),
  );
  if (area.isPending) return <Skeleton h={60} />;
  const a = area.data?.area;
  if (!a || editing) return <ServiceAreaForm onSaved={() => setEditing(false)} />;
  if (a.paused && a.pausedReason === 'expired_offers') {
    return (
      <Alert
        color="orange"
        // Dark text on the light orange: the alert's own orange title is below AA contrast.
        title={
          <Text component="span" fw={700} size="sm" c="dark.8">
            {EXPIRED_PAUSE_WORDS.state}
          </Text>
        }
        data-testid="service-area-paused"
      >
        <Text size="sm" mb="sm">
          {EXPIRED_PAUSE_WORDS.explain}
        </Text>
        <Group gap="xs">
          <Button size="sm" loading={resume.isPending} onClick={() => resume.mutate()}>
            {EXPIRED_PAUSE_WORDS.resume}
          </Button>
          <Button size="sm" variant="default" onClick={() => setEditing(true)}>
            Edit
          </Button>
        </Group>
      </Alert>
    );
  }
  return (
    <Group justify="space-between" wrap="nowrap" align="flex-start" data-testid="service-area-summary">
      <Text size="sm">{serviceAreaSummary(a)}</Text>
      <Button size="xs" variant="default" className={classes.badge} onClick={() => setEditing(true)}>
        Edit
      </Button>
    </Group>
  );
}
