import { createFileRoute } from '@tanstack/react-router';
import { AdminSection } from '../../../console/shared/AdminSection';
import { WebhookSection } from '../../../console/webhook/WebhookSection';

// Issue 36 (decision 0995): owners only; the server refuses the others anyway.
export const Route = createFileRoute('/admin/_console/webhook')({ component: WebhookPage });

function WebhookPage() {
  return (
    <AdminSection title="Orders webhook">
      <WebhookSection />
    </AdminSection>
  );
}
