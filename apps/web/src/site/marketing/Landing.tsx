import { DEFAULT_VIDEO_TITLES } from '@dn/schema';
import { Badge, Button, Card, Container, Group, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { Suspense, useEffect, useState } from 'react';
import { lazyWithPreload, preloadWhenIdle } from '../../shared/lib/preload';
import { loadScheduleCallDialog, ScheduleCall } from '../schedule-call';
import { TIER_CARDS } from '../shared/tiers';
import { useLandingVideos, VideoFrame } from '../videos';
import { LandingNav } from './LandingNav';
import classes from './landing.module.css';
import { scrollToSection } from './scroll';

// The wizard is the heaviest thing a visitor can open: it loads on the first Enroll click.
const WizardModal = lazyWithPreload(() => import('./WizardModal'));

export function Landing() {
  const [enrollOpen, setEnrollOpen] = useState(false);
  const [scheduleOpen, setScheduleOpen] = useState(false);
  const video = useLandingVideos();
  // Loaded when the page is idle, so the first Enroll or Schedule click opens at once (issue 36).
  useEffect(() => preloadWhenIdle(WizardModal.preload, loadScheduleCallDialog), []);
  const enroll = () => setEnrollOpen(true);
  const schedule = () => setScheduleOpen(true);

  return (
    <>
      <LandingNav onSchedule={schedule} />
      <section id="home" className={classes.hero} aria-labelledby="hero-title">
        <Container size="lg">
          <SimpleGrid cols={{ base: 1, md: 2 }} spacing="xl" className={classes.heroGrid}>
            <Stack gap="md">
              <Title order={1} id="hero-title" className={classes.heroTitle}>
                Grow your business with insulation blankets and solar attic fans
              </Title>
              <Text size="lg" className={classes.heroText}>
                Join our dealer network: sell, install, or both. Three tiers, wholesale pricing, and a network that
                sends you projects.
              </Text>
              <Group>
                <Button size="md" color="sun.6" c="dark.9" onClick={enroll}>
                  Enroll Now
                </Button>
                {/* data-section: the prerendered page scrolls without the app (landing/main.ts). */}
                <Button size="md" variant="white" data-section="demo" onClick={() => scrollToSection('demo')}>
                  Watch Demo
                </Button>
              </Group>
              {/* Issue 47: a homeowner on a phone finds the quote form on the first screen. */}
              <Text className={classes.heroText}>
                A homeowner?{' '}
                <a href="/quote" className={classes.heroLink} data-testid="hero-quote-link">
                  Get an installation quote
                </a>
              </Text>
            </Stack>
            <VideoFrame video={video('intro_video')} fallbackTitle={DEFAULT_VIDEO_TITLES.intro_video} />
          </SimpleGrid>
        </Container>
      </section>

      <section id="program" className={classes.section} aria-labelledby="program-title">
        <Container size="lg">
          <Title order={2} ta="center" id="program-title">
            Dealer Program
          </Title>
          <Text ta="center" c="dimmed" mt="xs" mb="xl">
            Choose the tier that fits how you work.
          </Text>
          <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="lg">
            {TIER_CARDS.map((t) => (
              <Card
                key={t.tier}
                withBorder
                padding="lg"
                className={t.popular ? classes.popular : undefined}
                data-testid={`tier-card-${t.tier}`}
              >
                <Group justify="space-between" align="flex-start" mb="xs">
                  <div>
                    <Title order={3}>{t.tier}</Title>
                    <Text size="sm" c="dimmed">
                      {t.tagline}
                    </Text>
                  </div>
                  {t.popular && (
                    <Badge color="sun.6" c="dark.9">
                      Most Popular
                    </Badge>
                  )}
                </Group>
                <List size="sm" spacing={6} mt="sm">
                  {t.benefits.map((b) => (
                    <List.Item key={b}>{b}</List.Item>
                  ))}
                </List>
              </Card>
            ))}
          </SimpleGrid>
        </Container>
      </section>

      <section id="demo" className={classes.sectionAlt} aria-labelledby="demo-title">
        <Container size="md">
          <Title order={2} ta="center" id="demo-title" mb="lg">
            {video('demo_video')?.title || DEFAULT_VIDEO_TITLES.demo_video}
          </Title>
          <VideoFrame video={video('demo_video')} fallbackTitle={DEFAULT_VIDEO_TITLES.demo_video} />
        </Container>
      </section>

      <section className={classes.cta} aria-labelledby="cta-title">
        <Container size="md" ta="center">
          <Title order={2} id="cta-title">
            Ready to become a dealer?
          </Title>
          <Text mt="xs" mb="lg">
            Apply in a few minutes, or talk to us first on a free 15-minute call.
          </Text>
          <Group justify="center">
            <Button size="md" onClick={enroll}>
              Enroll Directly
            </Button>
            <Button size="md" variant="outline" onClick={schedule}>
              Schedule a Call
            </Button>
          </Group>
          <Text mt="md">
            A homeowner? <a href="/quote">Get an installation quote</a>
          </Text>
        </Container>
      </section>

      {enrollOpen && (
        <Suspense fallback={null}>
          <WizardModal opened={enrollOpen} onClose={() => setEnrollOpen(false)} />
        </Suspense>
      )}
      <ScheduleCall opened={scheduleOpen} onClose={() => setScheduleOpen(false)} />
    </>
  );
}
