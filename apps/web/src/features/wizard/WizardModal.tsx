import { Modal } from '@mantine/core';
import { RegistrationWizard } from './RegistrationWizard';

/** The wizard in a modal (landing's Enroll buttons); loaded lazily so the landing stays light. */
export default function WizardModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Dealer Application"
      size="lg"
      fullScreen={false}
      closeOnClickOutside={false}
      keepMounted={false}
    >
      <RegistrationWizard onDone={onClose} onCancel={onClose} />
    </Modal>
  );
}
