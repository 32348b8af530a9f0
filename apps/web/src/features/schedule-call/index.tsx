import { lazy, Suspense } from 'react';

const Dialog = lazy(() => import('./ScheduleCallDialog'));

/** Mounts the dialog's code only once it has been opened. */
export function ScheduleCall({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  if (!opened) return null;
  return (
    <Suspense fallback={null}>
      <Dialog opened={opened} onClose={onClose} />
    </Suspense>
  );
}
