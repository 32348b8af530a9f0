import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { trpc } from '../../lib/trpc';
import classes from './admin.module.css';
import type { DealerItem } from './types';
import { useAdminFeedback } from './use-admin-mutation';

export default function RejectDialog({ dealer, onClose }: { dealer: DealerItem; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const feedback = useAdminFeedback();
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
