import { createFileRoute, redirect } from '@tanstack/react-router';
import { AdminLayout } from '../../console/admin/AdminLayout';

// The console's layout (issue 34): the sections' navigation around the open section, each a child
// route in _console/. Pathless: the sections are /admin, /admin/calls, ... The component is
// code-split: the console's code loads only when one of them opens.
export const Route = createFileRoute('/admin/_console')({
  beforeLoad: async ({ context }) => {
    // A courtesy (the server decides): nobody signed in goes to the admin login.
    if (!(await context.auth.user())) throw redirect({ to: '/admin/login', replace: true });
  },
  component: AdminLayout,
});
