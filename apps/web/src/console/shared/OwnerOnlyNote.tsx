import { Text } from '@mantine/core';

/** Beside a setting a reviewer or viewer sees read-only (issue 36): why it does not change. */
export function OwnerOnlyNote() {
  return (
    <Text size="xs" c="dimmed" data-testid="owner-only-note">
      Read-only: only owners may change this setting.
    </Text>
  );
}
