import { lazy, Suspense } from 'react';
import type { ScheduleCallDialogProps } from './ScheduleCallDialog';

const Dialog = lazy(() => import('./ScheduleCallDialog'));

/** Mounts the dialog's code only once it has been opened. */
export function ScheduleCall({ opened, onClose, prefill }: ScheduleCallDialogProps) {
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <Dialog opened={opened} onClose={onClose} prefill={prefill} />
    </Suspense>
  );
}
