import { Button, Group, Select, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTrpc } from '../../shared/lib/trpc';
import { ADMIN_MUTATIONS } from '../shared/mutations';
import { useAdminRole } from '../shared/role';
import { useAdminMutation } from '../shared/use-admin-mutation';

const ZONES: string[] =
  typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : ['America/New_York'];

/**
 * The business's time zone (issue 38): business days, review ages and the 08:00 digest are counted
 * in it. Owners change it; the others read it.
 */
export function BusinessTimeZone() {
  const trpc = useTrpc();
  const { can } = useAdminRole();
  const current = useQuery(trpc.settings.business.queryOptions());
  const [zone, setZone] = useState<string | null>(null);
  const save = useAdminMutation(ADMIN_MUTATIONS.setBusinessSettings, { onSuccess: () => setZone(null) });
  const value = zone ?? current.data?.timeZone ?? null;
  if (!can('owner')) {
    return <Text size="sm">Business time zone: {current.data?.timeZone ?? '…'} (owners can change it)</Text>;
  }
  return (
    <Group align="end">
      <Select
        label="Business time zone"
        description="Business days, review deadlines and the 08:00 daily digest are counted in it"
        searchable
        allowDeselect={false}
        data={ZONES}
        value={value}
        onChange={setZone}
        w={320}
      />
      <Button
        disabled={!zone || zone === current.data?.timeZone || save.isPending}
        onClick={() => zone && save.mutate({ timeZone: zone })}
      >
        Save
      </Button>
    </Group>
  );
}
