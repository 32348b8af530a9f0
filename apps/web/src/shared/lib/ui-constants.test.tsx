import { TooltipDelayGroup, theme } from '@dn/ui';
import { MantineProvider, useProps } from '@mantine/core';
import { isValidElement, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';

// SPEC section 9 (docs/decisions/0711): tooltips open after 700 ms and skip the delay for 300 ms
// after one closes; select popups keep 10 px from the viewport's edges. The numbers are the SPEC's,
// written here on purpose rather than imported, so a changed constant fails.

type Probed = 'Tooltip' | 'Combobox';
const seen: Partial<Record<Probed, Record<string, unknown>>> = {};

function Probe({ name }: { name: Probed }) {
  seen[name] = useProps(name, {}, {}) as Record<string, unknown>;
  return null;
}

/** The props Mantine gives a component named `name` under the app's theme, as the component reads them. */
function resolved(name: Probed): Record<string, unknown> {
  renderToStaticMarkup(
    <MantineProvider theme={theme}>
      <Probe name={name} />
    </MantineProvider>,
  );
  return seen[name] ?? {};
}

describe('the theme (packages/ui)', () => {
  it('opens a tooltip after 700 ms', () => {
    expect(resolved('Tooltip').openDelay).toBe(700);
  });

  it('keeps every combobox popup (Select, Autocomplete, MultiSelect) 10 px from the viewport edge', () => {
    expect(resolved('Combobox').middlewares).toEqual({ flip: { padding: 10 }, shift: { padding: 10 } });
  });
});

describe('TooltipDelayGroup', () => {
  it("is floating-ui's delay group with a 700 ms open delay and a 300 ms skip window, inside Mantine's group", () => {
    const outer = TooltipDelayGroup({ children: 'x' }) as ReactElement<{ value: unknown; children: unknown }>;
    expect(outer.props.value).toEqual({ withinGroup: true });
    const inner = outer.props.children as ReactElement<{ delay: unknown; timeoutMs: unknown; children: unknown }>;
    expect(isValidElement(inner)).toBe(true);
    expect((inner.type as { name?: string }).name).toBe('FloatingDelayGroup');
    expect(inner.props).toMatchObject({ delay: { open: 700, close: 0 }, timeoutMs: 300, children: 'x' });
  });
});
