import { createFileRoute } from '@tanstack/react-router';
import { StatusPage } from '../site/application-status/StatusPage';

/** /application/$token: the applicant's private status page (issue 15). */
export const Route = createFileRoute('/application/$token')({
  component: Page,
});

function Page() {
  const { token } = Route.useParams();
  return <StatusPage token={token} />;
}
