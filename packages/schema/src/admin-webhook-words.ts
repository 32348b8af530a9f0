/** The orders webhook's status screen (issue 36, decision 0995). */
export const WEBHOOK_WORDS = {
  intro:
    'Your store or CRM sends each order here, signed with the webhook secret (docs/integrations.md). The newest deliveries are below with the answer each got.',
  secretSet: 'Secret set (ORDERS_WEBHOOK_SECRET); it is never shown.',
  secretMissing: 'No secret set: every delivery is refused (401). Set ORDERS_WEBHOOK_SECRET on the server.',
  none: 'No deliveries yet.',
  ownersOnly: 'Only owners see the orders webhook.',
} as const;
