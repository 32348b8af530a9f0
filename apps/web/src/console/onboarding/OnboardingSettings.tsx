import { displayMoney } from '@dn/schema';
import { Button, Card, Group, SimpleGrid, Skeleton, Stack, Text, Textarea, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { fieldErrorsOf, useTrpc } from '../../shared/lib/trpc';
import type { AdminAgreement, InventorySetting } from '../../shared/onboarding/types';
import { OwnerOnlyNote } from '../shared/OwnerOnlyNote';
import { useAdminRole } from '../shared/role';

/**
 * The owner's onboarding settings (issue 38), in the Content section, loaded lazily: each tier's
 * agreement text (saving publishes a new version and asks the tier's dealers to sign it) and the
 * initial inventory amounts of the installer tiers.
 */
function AgreementCard({ agreement, owner }: { agreement: AdminAgreement; owner: boolean }) {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const [text, setText] = useState(agreement.text);
  const save = useMutation(
    trpc.onboarding.setAgreement.mutationOptions({
      onSuccess: (r) => {
        notifications.show({
          color: 'green',
          title: `Version ${r.version} published`,
          message: `${r.notified} dealers were asked to sign it.`,
        });
        void queryClient.invalidateQueries({ queryKey: trpc.onboarding.agreements.queryKey() });
      },
      onError: (error) => notifications.show({ color: 'red', title: 'Not published', message: error.message }),
    }),
  );
  return (
    <Card withBorder data-testid={`agreement-${agreement.tier}`}>
      <Stack gap="xs">
        <Title order={4}>
          {agreement.tier} agreement, version {agreement.version}
        </Title>
        <Textarea
          label="Text (Markdown)"
          autosize
          minRows={8}
          maxRows={20}
          value={text}
          readOnly={!owner}
          onChange={(e) => setText(e.currentTarget.value)}
          error={fieldErrorsOf(save.error)?.text}
        />
        {owner ? (
          <Button
            onClick={() => save.mutate({ tier: agreement.tier, text })}
            loading={save.isPending}
            disabled={text === agreement.text}
          >
            Publish as a new version
          </Button>
        ) : (
          <OwnerOnlyNote />
        )}
      </Stack>
    </Card>
  );
}

function InventoryCard({ setting, owner }: { setting: InventorySetting; owner: boolean }) {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const [required, setRequired] = useState(setting.inventoryRequired);
  const [upfront, setUpfront] = useState(setting.inventoryUpfront);
  const save = useMutation(
    trpc.onboarding.setSettings.mutationOptions({
      onSuccess: () => {
        notifications.show({ color: 'green', title: 'Saved', message: `${setting.tier} initial inventory updated.` });
        void queryClient.invalidateQueries({ queryKey: trpc.onboarding.settings.queryKey() });
      },
      onError: (error) => notifications.show({ color: 'red', title: 'Not saved', message: error.message }),
    }),
  );
  const errors = fieldErrorsOf(save.error) ?? {};
  return (
    <Card withBorder data-testid={`inventory-${setting.tier}`}>
      <Stack gap="xs">
        <Title order={4}>{setting.tier} initial inventory</Title>
        <Text size="sm" c="dimmed">
          Now {displayMoney(setting.inventoryRequired)}, {displayMoney(setting.inventoryUpfront)} upfront
        </Text>
        <Group grow>
          <TextInput
            label="Required"
            value={required}
            readOnly={!owner}
            error={errors.inventoryRequired}
            onChange={(e) => setRequired(e.currentTarget.value)}
          />
          <TextInput
            label="Upfront"
            value={upfront}
            readOnly={!owner}
            error={errors.inventoryUpfront}
            onChange={(e) => setUpfront(e.currentTarget.value)}
          />
        </Group>
        {owner ? (
          <Button
            onClick={() =>
              save.mutate({
                tier: setting.tier as 'Authorized' | 'Preferred',
                inventoryRequired: required,
                inventoryUpfront: upfront,
              })
            }
            loading={save.isPending}
          >
            Save
          </Button>
        ) : (
          <OwnerOnlyNote />
        )}
      </Stack>
    </Card>
  );
}

export default function OnboardingSettings() {
  const trpc = useTrpc();
  const owner = useAdminRole().can('owner');
  const agreements = useQuery(trpc.onboarding.agreements.queryOptions());
  const settings = useQuery(trpc.onboarding.settings.queryOptions());
  if (agreements.isLoading || settings.isLoading) return <Skeleton h={300} />;
  return (
    <Stack>
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        {settings.data?.map((s) => (
          <InventoryCard key={`${s.tier}-${s.updatedAt}`} setting={s} owner={owner} />
        ))}
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, lg: 3 }}>
        {agreements.data?.map((a) => (
          <AgreementCard key={`${a.tier}-${a.version}`} agreement={a} owner={owner} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
