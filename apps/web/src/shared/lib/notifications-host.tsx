import '@mantine/notifications/styles.css';
import { TOAST } from '@dn/ui';
import { useHotkeys, useMounted } from '@mantine/hooks';
import { Notifications, notifications, useNotifications } from '@mantine/notifications';
import { type PointerEvent, useEffect, useRef } from 'react';
import classes from './notifications-host.module.css';

interface Swipe {
  id: string;
  el: HTMLElement;
  startX: number;
}

/**
 * Loaded after the first paint (main.tsx): the toast host is not needed to show the landing page.
 * SPEC sections 3 and 9: one toast at a time for 5 s; F8 moves focus to the notification region;
 * a swipe right past 50 px dismisses (Mantine's own drag needs 35% of the width, either way, so it
 * is off); the region is at most 420 px wide. One at a time means the newest: Mantine's `limit`
 * queues a toast behind the one shown (an admin's second decision would wait out the first's
 * 10-second Undo window), so a queued toast replaces the shown one, as the spec's toast reducer does.
 */
export default function NotificationsHost() {
  const region = useRef<HTMLElement>(null);
  const swipe = useRef<Swipe | null>(null);
  // Rendered in the page, not a portal, so the region wraps the toasts; after mount, so the
  // build-time render of the landing page has nothing of it but the empty region.
  const mounted = useMounted();
  // Everywhere, form fields included: F8 is not a key anyone types.
  useHotkeys([[TOAST.hotkey, () => region.current?.focus()]], [], true);
  const { notifications: shown, queue } = useNotifications();
  useEffect(() => {
    if (queue.length > 0) for (const n of shown) if (n.id) notifications.hide(n.id);
  }, [shown, queue]);

  const start = (e: PointerEvent<HTMLElement>) => {
    const target = e.target as HTMLElement;
    const el = target.closest<HTMLElement>(`.${classes.notification}`);
    if (e.button !== 0 || !el?.id || target.closest('button')) return;
    swipe.current = { id: el.id, el, startX: e.clientX };
    el.setPointerCapture(e.pointerId);
  };
  const move = (e: PointerEvent<HTMLElement>) => {
    const s = swipe.current;
    if (s) s.el.style.translate = `${Math.max(0, e.clientX - s.startX)}px 0`;
  };
  const end = (e: PointerEvent<HTMLElement>, cancelled: boolean) => {
    const s = swipe.current;
    if (!s) return;
    swipe.current = null;
    s.el.style.translate = '';
    if (!cancelled && e.clientX - s.startX > TOAST.swipeThresholdPx) notifications.hide(s.id);
  };

  return (
    <section
      ref={region}
      aria-label={`Notifications (${TOAST.hotkey})`}
      tabIndex={-1}
      className={classes.region}
      data-testid="notifications-region"
      onPointerDown={start}
      onPointerMove={move}
      onPointerUp={(e) => end(e, false)}
      onPointerCancel={(e) => end(e, true)}
    >
      {mounted && (
        <Notifications
          limit={TOAST.limit}
          autoClose={TOAST.durationMs}
          position="top-right"
          containerWidth={TOAST.maxWidthPx}
          allowDragDismiss={false}
          withinPortal={false}
          classNames={{ notification: classes.notification }}
        />
      )}
    </section>
  );
}
