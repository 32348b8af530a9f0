import { Anchor, Button, Container, Group } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { Logo } from '../../shared/components/layout/Logo';
import layout from '../../shared/components/layout/layout.module.css';
import { MobileMenu } from '../../shared/components/layout/MobileMenu';
import classes from './landing.module.css';
import { scrollToSection } from './scroll';

const SECTIONS = [
  { id: 'home', label: 'Home' },
  { id: 'program', label: 'Dealer Program' },
  { id: 'demo', label: 'Demo' },
] as const;

/** The landing's own top navigation (the app's is hidden on /). */
export function LandingNav({ onSchedule }: { onSchedule: () => void }) {
  return (
    <header className={classes.nav}>
      <Container size="lg" className={layout.headerInner}>
        <Logo />
        <Group gap="lg" visibleFrom="sm" component="nav" aria-label="Sections">
          {SECTIONS.map((s) => (
            <Anchor
              key={s.id}
              href={`#${s.id}`}
              c="dark"
              size="sm"
              fw={500}
              onClick={(e) => {
                e.preventDefault();
                scrollToSection(s.id);
              }}
            >
              {s.label}
            </Anchor>
          ))}
          <Anchor component={Link} to="/about" c="dark" size="sm" fw={500}>
            About
          </Anchor>
          <Anchor component={Link} to="/resources" c="dark" size="sm" fw={500}>
            Resources
          </Anchor>
          <Anchor component={Link} to="/quote" c="dark" size="sm" fw={500}>
            Homeowner Quote
          </Anchor>
          <Anchor component={Link} to="/login" c="dark" size="sm" fw={500}>
            Dealer Login
          </Anchor>
          <Button size="sm" onClick={onSchedule}>
            Schedule Call
          </Button>
        </Group>
        <MobileMenu
          extra={(close) => (
            <>
              {SECTIONS.map((s) => (
                <Button
                  key={s.id}
                  variant="subtle"
                  justify="flex-start"
                  onClick={() => {
                    close();
                    scrollToSection(s.id);
                  }}
                >
                  {s.label}
                </Button>
              ))}
              <Button component={Link} to="/login" variant="subtle" justify="flex-start" onClick={close}>
                Dealer Login
              </Button>
              <Button
                onClick={() => {
                  close();
                  onSchedule();
                }}
              >
                Schedule Call
              </Button>
            </>
          )}
        />
      </Container>
    </header>
  );
}
