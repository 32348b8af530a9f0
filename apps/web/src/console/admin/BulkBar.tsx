import {
  ADMIN_MESSAGES,
  DEALER_STATUSES,
  type DealerStatus,
  plural,
  type ReviewDecision,
  TIERS,
  type Tier,
} from '@dn/schema';
import { ConfirmModal } from '@dn/ui';
import { Button, Group, Paper, Progress, Select, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { ADMIN_MUTATIONS } from '../shared/mutations';
import { useAdminMutation } from '../shared/use-admin-mutation';
import { useDecisionNotice } from '../shared/use-decision';
import { ReasonInput } from './ReasonInput';

/** What the admin selected: rows picked one by one, or every dealer matching the current filter. */
export type Selection = { all: false; ids: string[] } | { all: true; total: number };

export interface BulkBarProps {
  selection: Selection;
  filter: { q?: string | undefined; tier?: Tier | undefined; status?: DealerStatus | undefined };
  matching: number;
  pageCount: number;
  onSelectAll: () => void;
  onClear: () => void;
}

const count = (n: number) => plural(n, 'dealer');

/**
 * The selection's actions (issue 14): approve, reject with one reason, set status, set tier.
 * The server decides in batches; the bar shows the progress, then the result with its Undo.
 */
export function BulkBar({ selection, filter, matching, pageCount, onSelectAll, onClear }: BulkBarProps) {
  const notice = useDecisionNotice();
  // Each step refreshes the list; a failed step says so (the spec's words) and ends the run.
  const start = useAdminMutation(ADMIN_MUTATIONS.bulkStart);
  const next = useAdminMutation(ADMIN_MUTATIONS.bulkContinue);
  const [progress, setProgress] = useState<{ processed: number; total: number } | null>(null);
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const size = selection.all ? selection.total : selection.ids.length;

  const run = async (decision: ReviewDecision) => {
    setProgress({ processed: 0, total: size });
    try {
      let s = await start.mutateAsync({
        selection: selection.all ? { filter } : { ids: selection.ids },
        decision,
      });
      setProgress({ processed: s.processed, total: s.total });
      while (!s.done) {
        s = await next.mutateAsync({ id: s.id });
        setProgress({ processed: s.processed, total: s.total });
      }
      const skipped = s.skipped.map((k) => `${k.count} skipped (${k.why})`).join(', ');
      notice(
        `${s.changed} changed${skipped ? `, ${skipped}` : ''}`,
        s.changed > 0 ? ADMIN_MESSAGES.decided.detail : ADMIN_MESSAGES.decided.nothing,
        s.changed > 0 ? { id: s.id, undoUntil: s.undoUntil } : null,
      );
      onClear();
    } catch {
      // useAdminMutation showed the failure.
    } finally {
      setProgress(null);
    }
  };

  if (size === 0) return null;
  const busy = progress !== null;
  return (
    <Paper withBorder p="sm" data-testid="bulk-bar">
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap">
          <Text size="sm" fw={500}>
            {count(size)} selected{selection.all ? ' (all matching this filter)' : ''}
          </Text>
          <Group gap="xs">
            {!selection.all && selection.ids.length >= pageCount && matching > pageCount && (
              <Button size="xs" variant="subtle" onClick={onSelectAll}>
                Select all {matching} matching this filter
              </Button>
            )}
            <Button size="xs" variant="subtle" color="gray" onClick={onClear} disabled={busy}>
              Clear selection
            </Button>
          </Group>
        </Group>
        <Group gap="xs" wrap="wrap">
          <Button size="xs" color="green" disabled={busy} onClick={() => run({ kind: 'approve' })}>
            Approve selected
          </Button>
          <Button size="xs" color="red" variant="light" disabled={busy} onClick={() => setRejecting(true)}>
            Reject selected
          </Button>
          <Select
            aria-label="Set status of selected"
            placeholder="Set status"
            data={[...DEALER_STATUSES]}
            value={null}
            disabled={busy}
            onChange={(v) => v && run({ kind: 'status', status: v as DealerStatus })}
            size="xs"
            w={140}
          />
          <Select
            aria-label="Set tier of selected"
            placeholder="Set tier"
            data={[...TIERS]}
            value={null}
            disabled={busy}
            onChange={(v) => v && run({ kind: 'tier', tier: v as Tier })}
            size="xs"
            w={140}
          />
        </Group>
        {progress && (
          <Stack gap={4}>
            <Progress value={progress.total ? (100 * progress.processed) / progress.total : 0} animated />
            <Text size="xs" c="dimmed" data-testid="bulk-progress">
              {progress.processed} of {progress.total} processed
            </Text>
          </Stack>
        )}
      </Stack>
      {rejecting && (
        <ConfirmModal
          title={`Reject ${count(size)}`}
          onClose={() => setRejecting(false)}
          confirmLabel={`Reject ${count(size)}`}
          color="red"
          disabled={reason.trim() === ''}
          onConfirm={() => {
            setRejecting(false);
            void run({ kind: 'reject', reason: reason.trim() });
            setReason('');
          }}
        >
          <ReasonInput label="Reason (sent to each applicant)" value={reason} onChange={setReason} />
        </ConfirmModal>
      )}
    </Paper>
  );
}
