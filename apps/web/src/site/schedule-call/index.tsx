import { Suspense } from 'react';
import { lazyWithPreload } from '../../shared/lib/preload';
import type { ScheduleCallDialogProps } from './ScheduleCallDialog';

/** The dialog's code: `lazy` loads it on first open; pages preload it when idle (issue 36). */
const Dialog = lazyWithPreload(() => import('./ScheduleCallDialog'));
export const loadScheduleCallDialog = Dialog.preload;

/** Mounts the dialog's code only once it has been opened. */
export function ScheduleCall({ opened, onClose, prefill }: ScheduleCallDialogProps) {
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <Dialog opened={opened} onClose={onClose} prefill={prefill} />
    </Suspense>
  );
}
