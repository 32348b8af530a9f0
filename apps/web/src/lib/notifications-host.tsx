import '@mantine/notifications/styles.css';
import { Notifications } from '@mantine/notifications';

/** Loaded after the first paint (main.tsx): the toast host is not needed to show the landing page. */
export default function NotificationsHost() {
  // One toast at a time (SPEC section 9).
  return <Notifications limit={1} autoClose={5000} position="top-right" />;
}
