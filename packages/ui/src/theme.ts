import { type CSSVariablesResolver, createTheme, type MantineColorsTuple } from '@mantine/core';
import { POPUP_VIEWPORT_MARGIN_PX, TOOLTIP_OPEN_DELAY_MS } from './ui-constants';

const brand: MantineColorsTuple = [
  '#e6f7f2',
  '#ccebe2',
  '#9bd6c4',
  '#66c1a5',
  '#3aae8b',
  '#1fa27b',
  '#0e8a67',
  '#0b7458',
  '#0b5d4b',
  '#06473a',
];

const sun: MantineColorsTuple = [
  '#fff8e1',
  '#ffefc7',
  '#fedd8f',
  '#fdcb52',
  '#fcbc25',
  '#fcb20a',
  '#f5b301',
  '#c98f00',
  '#b37f00',
  '#9a6c00',
];

/** One theme for the whole app. Colours chosen for WCAG AA contrast on white. */
export const theme = createTheme({
  primaryColor: 'brand',
  primaryShade: { light: 8, dark: 5 },
  colors: { brand, sun },
  fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  headings: { fontWeight: '750' },
  defaultRadius: 'md',
  focusRing: 'auto',
  cursorType: 'pointer',
  components: {
    // A tooltip outside TooltipDelayGroup (a portal of its own) still waits the SPEC's 700 ms.
    Tooltip: { defaultProps: { openDelay: TOOLTIP_OPEN_DELAY_MS } },
    // Every Select, Autocomplete, MultiSelect and custom combobox renders a Combobox: its popup
    // flips and shifts to keep 10 px from the viewport's edges (SPEC section 9). Its list is drawn
    // when it opens: Mantine 9 keeps every closed list in the page (display: none, in a portal, placed
    // by Floating UI on mount), which made the console's 50 dealer rows (two Selects each) take 5 s
    // to draw on a quiet machine and over 45 s on a busy one (decision 1360).
    Combobox: {
      defaultProps: {
        keepMounted: false,
        middlewares: {
          flip: { padding: POPUP_VIEWPORT_MARGIN_PX },
          shift: { padding: POPUP_VIEWPORT_MARGIN_PX },
        },
      },
    },
  },
});

/**
 * Mantine's dimmed text (gray 6, #868e96) is 3.3:1 on white, under WCAG AA's 4.5:1 for body
 * text; gray 7 (#495057) is 8.6:1 and still reads as secondary next to black.
 */
export const cssVariablesResolver: CSSVariablesResolver = () => ({
  variables: {},
  light: { '--mantine-color-dimmed': 'var(--mantine-color-gray-7)' },
  dark: {},
});
