/** The one-click unsubscribe page's words (issue 40, decision 0983). */
export const UNSUBSCRIBE_MESSAGES = {
  title: 'Unsubscribe',
  ask: (category: string, address: string) => `Stop sending ${category} emails to ${address}?`,
  button: 'Unsubscribe',
  done: (category: string, address: string) =>
    `Done: ${address} will get no more ${category} emails. Emails about your account (sign-in links, password resets, decisions) still arrive.`,
  already: (category: string, address: string) => `${address} is already unsubscribed from ${category} emails.`,
  invalid: 'This unsubscribe link is not valid. Copy the whole link from the email, or reply to it and ask us.',
} as const;
