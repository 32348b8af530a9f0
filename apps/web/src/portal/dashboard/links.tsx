import { Anchor, Button, type ButtonProps } from '@mantine/core';
import { createLink } from '@tanstack/react-router';
import type { ComponentPropsWithRef } from 'react';

/** Button renders a <button> by default; a link must be an <a>. */
function ButtonAnchor(props: ButtonProps & ComponentPropsWithRef<'a'>) {
  return <Button component="a" {...props} />;
}

/** Mantine components as router links (typed `to`, preloading). */
export const ButtonLink = createLink(ButtonAnchor);
export const AnchorLink = createLink(Anchor);
