import { Button, Checkbox, Group, TextInput } from '@mantine/core';
import dayjs from 'dayjs';
import { useState } from 'react';
import { ADMIN_MUTATIONS } from '../shared/mutations';
import { useAdminMutation } from '../shared/use-admin-mutation';

/**
 * The picked day as an instant (issue 47, item 5): today is now, another day its noon in the admin's
 * own zone (it reads as that day wherever the admin is; never a fixed "noon UTC", hours ahead in a
 * US morning).
 */
const orderedAtOf = (date: string) =>
  (date === dayjs().format('YYYY-MM-DD') ? dayjs() : dayjs(`${date}T12:00:00`)).toDate().toISOString();

/**
 * Records an order on a dealer (POST /api/admin/dealers/{id}/orders): on the timeline and in the
 * dealer row's "Record order" dialog (issue 13). Reviewer and up; the caller hides it from viewers.
 */
export function RecordOrderForm({
  dealerId,
  onRecorded,
  autofocus = false,
}: {
  dealerId: string;
  onRecorded?: () => void;
  /** In a dialog, the order id takes the focus. */
  autofocus?: boolean;
}) {
  const [orderId, setOrderId] = useState('');
  const [amount, setAmount] = useState('');
  const [date, setDate] = useState(dayjs().format('YYYY-MM-DD'));
  // An id the webhook or an import already recorded is refused (issue 35, finding 10) unless the
  // admin says this is a different order.
  const [differentOrder, setDifferentOrder] = useState(false);
  // The order earns its recruiter's commission: the spec refreshes the ledger too.
  const record = useAdminMutation(ADMIN_MUTATIONS.recordOrder, {
    onSuccess: () => {
      setOrderId('');
      setAmount('');
      setDifferentOrder(false);
      onRecorded?.();
    },
  });
  return (
    <Group align="flex-end" gap="xs">
      <TextInput
        label="Order id"
        value={orderId}
        onChange={(e) => setOrderId(e.currentTarget.value)}
        w={120}
        data-autofocus={autofocus || undefined}
      />
      <TextInput label="Amount ($)" value={amount} onChange={(e) => setAmount(e.currentTarget.value)} w={110} />
      <TextInput label="Date" type="date" value={date} onChange={(e) => setDate(e.currentTarget.value)} w={150} />
      <Checkbox
        label="A different order from one with this id from another source"
        checked={differentOrder}
        onChange={(e) => setDifferentOrder(e.currentTarget.checked)}
        mb={8}
      />
      <Button
        loading={record.isPending}
        disabled={!orderId.trim() || !amount.trim()}
        onClick={() =>
          record.mutate({
            id: dealerId,
            orderId,
            amount,
            orderedAt: orderedAtOf(date),
            ...(differentOrder ? { differentOrder: true } : {}),
          })
        }
      >
        Record order
      </Button>
    </Group>
  );
}
