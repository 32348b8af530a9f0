import { Modal } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { RegistrationWizard } from './RegistrationWizard';

/** The wizard in a modal (landing's Enroll buttons); loaded lazily so the landing stays light. */
export default function WizardModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  // On a phone the seven steps get the whole screen.
  const phone = useMediaQuery('(max-width: 36em)');
  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title="Dealer Application"
      size="lg"
      fullScreen={phone}
      closeOnClickOutside={false}
    >
      <RegistrationWizard onDone={onClose} onCancel={onClose} />
    </Modal>
  );
}
