import { Alert } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useTrpc } from '../lib/trpc';

const WHY = {
  password_changed:
    'You were signed out because the password of this account was changed elsewhere. Sign in with the new password to continue.',
  signed_out_elsewhere:
    'You were signed out from another browser ("Sign out everywhere else"). Sign in again to continue.',
} as const;

/**
 * Issue 36: a browser whose session was ended elsewhere is told why on the page it lands on (the
 * dashboard's signed-out view, the sign-in pages), not only "Go to Login". Nothing when it was not.
 */
export function SessionEndedNotice() {
  const trpc = useTrpc();
  const ended = useQuery(trpc.auth.ended.queryOptions(undefined, { staleTime: 0, retry: false }));
  const reason = ended.data?.reason;
  if (!reason) return null;
  return (
    <Alert color="blue" title="Your session ended" role="status" data-testid="session-ended">
      {WHY[reason]}
    </Alert>
  );
}
