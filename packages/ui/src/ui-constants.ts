/** SPEC section 9's UI constants, written once for the theme and the app. */

/** Tooltip open delay, and the window after one closes in which the next opens without it. */
export const TOOLTIP_OPEN_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

/** Select and other combobox popups keep this far from the viewport's edges. */
export const POPUP_VIEWPORT_MARGIN_PX = 10;

/** Toasts: one at a time, 5 s, swipe right past 50 px dismisses, F8 focuses the region, 420 px wide at most. */
export const TOAST = {
  limit: 1,
  durationMs: 5000,
  swipeThresholdPx: 50,
  hotkey: 'F8',
  maxWidthPx: 420,
} as const;
