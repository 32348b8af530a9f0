import { Anchor, Button } from '@mantine/core';
import { createLink } from '@tanstack/react-router';

/** Mantine components as router links (typed `to`, preloading). */
export const ButtonLink = createLink(Button);
export const AnchorLink = createLink(Anchor);
