import { Title } from '@mantine/core';
import { createFileRoute } from '@tanstack/react-router';
import { lazy, Suspense } from 'react';
import { FormsTab } from '../../../console/admin/FormsTab';
import { VideosTab } from '../../../console/admin/VideosTab';
import { AdminSection } from '../../../console/shared/AdminSection';

// What dealers and visitors are shown: the first order forms and the landing videos.
export const Route = createFileRoute('/admin/_console/content')({ component: ContentPage });

/** The dealer agreements and initial inventory amounts (issue 38), in their own chunk. */
const OnboardingSettings = lazy(() => import('../../../console/onboarding/OnboardingSettings'));

function ContentPage() {
  return (
    <AdminSection title="Content">
      <Title order={3}>First order forms</Title>
      <FormsTab />
      <Title order={3}>Landing videos</Title>
      <VideosTab />
      <Title order={3}>Onboarding: dealer agreements and initial inventory</Title>
      <Suspense fallback={null}>
        <OnboardingSettings />
      </Suspense>
    </AdminSection>
  );
}
