import { WIZARD_LEAVE } from '@dn/schema';
import { Button, Modal, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { useState } from 'react';
import { clearDraft, hasDraft, RegistrationWizard } from '../wizard';

/**
 * The wizard in a modal (landing's Enroll buttons); loaded lazily so the landing stays light. Esc or
 * the ✕ on a half-filled application asks first (issue 36, decision 0991): keep editing, close and keep
 * the answers in this browser, or discard them.
 */
export default function WizardModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  // On a phone the seven steps get the whole screen.
  const phone = useMediaQuery('(max-width: 36em)');
  const [asking, setAsking] = useState(false);
  // A new wizard after a discard: its fields start empty.
  const [round, setRound] = useState(0);
  const requestClose = () => {
    if (asking) setAsking(false);
    else if (hasDraft()) setAsking(true);
    else onClose();
  };
  const leave = (discard: boolean) => {
    if (discard) {
      clearDraft();
      setRound((r) => r + 1);
    }
    setAsking(false);
    onClose();
  };
  return (
    <Modal
      opened={opened}
      onClose={requestClose}
      title="Dealer Application"
      size="lg"
      fullScreen={phone}
      closeOnClickOutside={false}
      closeButtonProps={{ 'aria-label': WIZARD_LEAVE.closeLabel }}
    >
      {asking && (
        <Stack gap="sm" role="alertdialog" aria-labelledby="wizard-leave-title" data-testid="wizard-leave">
          <Title order={3} id="wizard-leave-title">
            {WIZARD_LEAVE.title}
          </Title>
          <Text size="sm">{WIZARD_LEAVE.body}</Text>
          <Button data-autofocus onClick={() => setAsking(false)}>
            {WIZARD_LEAVE.keep}
          </Button>
          <Button variant="default" onClick={() => leave(false)}>
            {WIZARD_LEAVE.leave}
          </Button>
          <Button variant="subtle" color="red" onClick={() => leave(true)}>
            {WIZARD_LEAVE.discard}
          </Button>
        </Stack>
      )}
      <div hidden={asking}>
        <RegistrationWizard key={round} onDone={onClose} onCancel={requestClose} />
      </div>
    </Modal>
  );
}
