import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTrpc } from '../../lib/trpc';

/** An admin decision the server can still undo (issue 14): its id and the end of its window. */
export interface UndoableAction {
  id: string;
  undoUntil: string;
}

let seq = 0;

/**
 * The notification of an approve, reject, status or tier decision: its result and, while the
 * window is open, an Undo button (the server decides whether it is still open). Nothing is
 * emailed before the window ends, so Undo means nothing was sent.
 */
export function useDecisionNotice() {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const undo = useMutation(trpc.review.undo.mutationOptions());
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.admin.pathKey() });

  return (title: string, detail: string, action: UndoableAction | null | undefined) => {
    const id = `decision-${++seq}`;
    const left = action ? new Date(action.undoUntil).getTime() - Date.now() : 0;
    const onUndo = async () => {
      if (!action) return;
      try {
        const r = await undo.mutateAsync({ id: action.id });
        notifications.update({
          id,
          title: 'Undone',
          message: r.kept > 0 ? `${r.kept} changed since were kept. No email was sent.` : 'No email was sent.',
          color: 'gray',
          autoClose: 5_000,
        });
      } catch (error) {
        notifications.update({
          id,
          title: 'Could not undo',
          message: (error as Error).message || 'Please try again.',
          color: 'red',
          autoClose: 5_000,
        });
      }
      await refresh();
    };
    notifications.show({
      id,
      title,
      color: 'green',
      autoClose: action && left > 0 ? left : 5_000,
      message:
        action && left > 0 ? (
          <Group justify="space-between" wrap="nowrap">
            <Text size="sm">{detail}</Text>
            <Button size="compact-sm" variant="light" onClick={onUndo}>
              Undo
            </Button>
          </Group>
        ) : (
          detail
        ),
    });
  };
}

/** useAdminFeedback's shape for a decision: the notice with Undo on success, the spec's words on failure. */
export function useDecisionFeedback() {
  const notice = useDecisionNotice();
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  return (failure: string, success: string, after?: () => void) => ({
    onSuccess: async (res: { action?: UndoableAction | null }) => {
      notice(success, res.action ? 'Emails go out when this closes.' : 'Nothing changed.', res.action);
      after?.();
      await queryClient.invalidateQueries({ queryKey: trpc.admin.pathKey() });
    },
    onError: (error: { message: string }) => {
      notifications.show({ title: failure, message: error.message || 'Please try again.', color: 'red' });
    },
  });
}
