import { DATE_FORMAT } from '@dn/schema';
import { Badge, Card, Group, SimpleGrid, Skeleton, Stack, Text, Title } from '@mantine/core';
import dayjs from 'dayjs';
import type { DealerInfo } from './types';

const STATUS_COLORS: Record<string, string> = {
  approved: 'green',
  active: 'green',
  pending: 'yellow',
  rejected: 'red',
  inactive: 'gray',
  suspended: 'red',
};

function Field({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={2}>
      <Text size="xs" c="dimmed" tt="uppercase" fw={600}>
        {label}
      </Text>
      <Text>{value}</Text>
    </Stack>
  );
}

export function DealerInfoCard({ info }: { info: DealerInfo | undefined }) {
  if (!info) return <Skeleton height={160} radius="md" />;
  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" mb="md">
        <Title order={2} size="h3">
          Dealer Information
        </Title>
        <Group gap="xs">
          <Badge variant="light">{info.tier}</Badge>
          <Badge color={STATUS_COLORS[info.status] ?? 'gray'} data-testid="dealer-status">
            {info.status}
          </Badge>
        </Group>
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Field label="Name" value={info.fullName} />
        <Field label="Company" value={info.companyName ?? '—'} />
        <Field label="Email" value={info.email} />
        <Field label="Tier" value={info.tier} />
        <Field label="Status" value={info.status} />
        <Field label="Member since" value={dayjs(info.createdAt).format(DATE_FORMAT)} />
      </SimpleGrid>
    </Card>
  );
}
