// Its own module, so the words ship with the wizard's chunks and not the app shell's.
/** Closing a half-filled application (issue 36, decision 0991): the question and its answers. */
export const WIZARD_LEAVE = {
  title: 'Leave your application?',
  body: 'Your answers are kept on this device until you submit, so you can come back and finish later.',
  keep: 'Keep editing',
  leave: 'Close and keep my answers',
  discard: 'Discard my answers',
  closeLabel: 'Close the application',
  restored: 'We kept your answers from last time.',
} as const;
