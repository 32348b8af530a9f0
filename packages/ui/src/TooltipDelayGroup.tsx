import { FloatingDelayGroup } from '@floating-ui/react';
import { TooltipGroupContext } from '@mantine/core';
import type { ReactNode } from 'react';
import { TOOLTIP_OPEN_DELAY_MS, TOOLTIP_SKIP_DELAY_MS } from './ui-constants';

/**
 * SPEC section 9: tooltips open after 700 ms, and for 300 ms after one closes the next opens at
 * once (moving along a toolbar). Mantine's Tooltip.Group has no skip window (it passes no
 * `timeoutMs` to floating-ui's delay group), so this is that group with one: Mantine's tooltips
 * inside it read the group's delay. Mounted once around the whole app.
 */
export function TooltipDelayGroup({ children }: { children: ReactNode }) {
  return (
    <TooltipGroupContext value={{ withinGroup: true }}>
      <FloatingDelayGroup delay={{ open: TOOLTIP_OPEN_DELAY_MS, close: 0 }} timeoutMs={TOOLTIP_SKIP_DELAY_MS}>
        {children}
      </FloatingDelayGroup>
    </TooltipGroupContext>
  );
}
