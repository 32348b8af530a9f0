import { ADMIN_MESSAGES } from '@dn/schema';
import { Button, Group, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useTrpc } from '../../shared/lib/trpc';
import { showAdminFailure } from './admin-mutation';
import { ADMIN_MUTATIONS } from './mutations';

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
  // The undo spec's words and queries, applied here: its answer replaces the decision's own notice
  // (useAdminMutation would show a second one, and this hook is part of it).
  const spec = ADMIN_MUTATIONS.undo;
  const undo = useMutation(spec.procedure(trpc).mutationOptions());
  const refresh = () =>
    Promise.all(spec.invalidates(trpc).map((queryKey) => queryClient.invalidateQueries({ queryKey })));

  return (title: string, detail: string, action: UndoableAction | null | undefined) => {
    const id = `decision-${++seq}`;
    const left = action ? new Date(action.undoUntil).getTime() - Date.now() : 0;
    const onUndo = async () => {
      if (!action) return;
      try {
        const r = await undo.mutateAsync({ id: action.id });
        notifications.update({
          id,
          title: ADMIN_MESSAGES.undo.success,
          message: ADMIN_MESSAGES.undo.detail(r.kept),
          color: 'gray',
          autoClose: 5_000,
        });
      } catch (error) {
        notifications.hide(id);
        showAdminFailure(spec.failure, error);
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
