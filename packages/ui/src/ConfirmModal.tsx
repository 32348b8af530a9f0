import { Button, Group, type MantineColor, Modal, Stack } from '@mantine/core';
import type { ReactNode } from 'react';

export interface ConfirmModalProps {
  title: ReactNode;
  /** Closed on Cancel, Escape and a click outside. */
  onClose: () => void;
  /** What the admin reads and fills in before confirming. */
  children: ReactNode;
  confirmLabel: ReactNode;
  /** The button that closes without deciding; "Cancel" unless that word is the decision itself. */
  cancelLabel?: ReactNode;
  onConfirm: () => void;
  /** Red for what destroys or refuses something. */
  color?: MantineColor;
  disabled?: boolean;
  loading?: boolean;
  opened?: boolean;
}

/** A dialog that asks for one decision: its content, then Cancel and the confirming button. */
export function ConfirmModal({
  title,
  onClose,
  children,
  confirmLabel,
  cancelLabel = 'Cancel',
  onConfirm,
  color,
  disabled,
  loading,
  opened = true,
}: ConfirmModalProps) {
  return (
    // The close button (x) named, as every button must be (axe: button-name).
    <Modal opened={opened} onClose={onClose} title={title} closeButtonProps={{ 'aria-label': 'Close' }}>
      <Stack>
        {children}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            {cancelLabel}
          </Button>
          <Button color={color} disabled={disabled} loading={loading} onClick={onConfirm}>
            {confirmLabel}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
