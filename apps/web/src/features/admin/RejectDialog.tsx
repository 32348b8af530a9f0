import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTrpc } from '../../lib/trpc';
import classes from './admin.module.css';
import type { DealerItem } from './types';
import { useDecisionFeedback } from './use-decision';

export default function RejectDialog({ dealer, onClose }: { dealer: DealerItem; onClose: () => void }) {
  const trpc = useTrpc();
  const [reason, setReason] = useState('');
  const feedback = useDecisionFeedback();
  const reject = useMutation(
    trpc.admin.reject.mutationOptions(feedback('Failed to reject dealer', 'Dealer application rejected', onClose)),
  );
  const blank = reason.trim() === '';
  return (
    <Modal opened onClose={onClose} title="Reject Dealer Application">
      <Stack>
        <Text size="sm">
          Why is the application of <b>{dealer.fullName}</b> rejected?
        </Text>
        <Textarea
          label="Reason"
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          autosize
          minRows={3}
          className={classes.reasonInput}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button
            color="red"
            disabled={blank || reject.isPending}
            loading={reject.isPending}
            onClick={() => reject.mutate({ id: dealer.id, reason: reason.trim() })}
          >
            Reject Application
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
