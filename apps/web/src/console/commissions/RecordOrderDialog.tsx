import { Modal, Text } from '@mantine/core';
import { RecordOrderForm } from './RecordOrderForm';

/** The dealer row's "Record order" action (issue 13): the timeline's form in a dialog. */
export default function RecordOrderDialog({
  dealer,
  onClose,
}: {
  dealer: { id: string; fullName: string; email: string };
  onClose: () => void;
}) {
  return (
    <Modal opened onClose={onClose} title="Record order" size="lg">
      <Text size="sm" mb="sm">
        Order of <b>{dealer.fullName}</b> ({dealer.email})
      </Text>
      <RecordOrderForm dealerId={dealer.id} onRecorded={onClose} autofocus />
    </Modal>
  );
}
