import { Text } from '@mantine/core';

/**
 * The browsers remembered for this account's sign-ins (issue 35: each keeps a sign-in budget of
 * its own until a password change, a reset or "sign out everywhere" forgets it; the 10 most recent
 * are kept). Listed under the sessions, as a line.
 */
export function RememberedBrowsers({ items: devices }: { items: readonly { current: boolean }[] }) {
  if (devices.length === 0) return null;
  const here = devices.some((d) => d.current);
  return (
    <Text size="sm" mt="xs" data-testid="remembered-browsers">
      {devices.length} browser{devices.length === 1 ? '' : 's'} remembered for sign-in
      {here ? ', this one included' : ''}. Changing your password forgets the others.
    </Text>
  );
}
