import { serviceAreaSummary } from '@dn/schema';
import { Button, Group, Skeleton, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
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
  if (area.isPending) return <Skeleton h={60} />;
  const a = area.data?.area;
  if (!a || editing) return <ServiceAreaForm onSaved={() => setEditing(false)} />;
  return (
    <Group justify="space-between" wrap="nowrap" align="flex-start" data-testid="service-area-summary">
      <Text size="sm">{serviceAreaSummary(a)}</Text>
      <Button size="xs" variant="default" className={classes.badge} onClick={() => setEditing(true)}>
        Edit
      </Button>
    </Group>
  );
}
