import { z } from 'zod';
import { email, pageNumber, requiredText, uuid } from './common';
import { MAX_ORDER_CENTS, money } from './money';

/** Orders (issue 13): recorded by an admin, by the signed webhook or by CSV import. */

export const ORDER_STATUSES = ['placed', 'cancelled', 'refunded'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];
export const ORDER_SOURCES = ['admin', 'webhook', 'import', 'job'] as const;
export type OrderSource = (typeof ORDER_SOURCES)[number];

/** A day of slack for clocks and time zones: an order cannot be dated later than that. */
const FUTURE_SLACK_MS = 24 * 60 * 60 * 1000;

export const orderAmount = money({
  required: 'Amount is required',
  invalid: 'Amount must be dollars and cents, like 1234.50 (at most 99999999.99)',
  min: 1n,
  max: MAX_ORDER_CENTS,
  tooSmall: 'Amount must be greater than 0',
});

export const externalOrderId = z
  .string({ error: 'Order id is required' })
  .trim()
  .min(1, 'Order id is required')
  .max(100, 'Order id must be at most 100 characters');

export const orderedAt = z
  .string({ error: 'Order date is required' })
  .trim()
  .min(1, 'Order date is required')
  .max(40, 'Order date must be an ISO 8601 date and time, like 2026-11-24T10:00:00Z')
  .pipe(
    z.iso.datetime({ offset: true, error: 'Order date must be an ISO 8601 date and time, like 2026-11-24T10:00:00Z' }),
  )
  .refine((v) => Date.parse(v) <= Date.now() + FUTURE_SLACK_MS, 'Order date cannot be in the future')
  .refine((v) => Date.parse(v) >= Date.UTC(2000, 0, 1), 'Order date is too far in the past');

/**
 * When a webhook or CSV event took effect at its sender (a cancel's or refund's time); the order's
 * state is decided by its events whatever order they arrive in (issue 35, finding 10). Without it,
 * the order date.
 */
export const eventAt = z
  .string({ error: 'Event time must be an ISO 8601 date and time, like 2026-11-24T10:00:00Z' })
  .trim()
  .max(40, 'Event time must be an ISO 8601 date and time, like 2026-11-24T10:00:00Z')
  .pipe(
    z.iso.datetime({ offset: true, error: 'Event time must be an ISO 8601 date and time, like 2026-11-24T10:00:00Z' }),
  )
  .refine((v) => Date.parse(v) <= Date.now() + FUTURE_SLACK_MS, 'Event time cannot be in the future')
  .refine((v) => Date.parse(v) >= Date.UTC(2000, 0, 1), 'Event time is too far in the past');

/**
 * An order dated further back than this many days is recorded by an owner only (issue 35, finding
 * 4: the two-person rule); a reviewer gets 403.
 */
export const BACKDATE_OWNER_DAYS = 60;

export const orderStatus = z.enum(ORDER_STATUSES, { error: 'Status must be placed, cancelled or refunded' });

/** POST /api/admin/dealers/{id}/orders */
export const recordOrderInput = z.object({
  id: uuid('Unknown dealer'),
  orderId: externalOrderId,
  amount: orderAmount,
  orderedAt,
  /**
   * The admin says this is a different order from the one another source (the webhook, an
   * import) recorded under the same id; without it, such an id is refused with 409.
   */
  differentOrder: z.boolean({ error: 'differentOrder must be true or false' }).optional(),
});
export type RecordOrderInput = z.infer<typeof recordOrderInput>;

/** POST /api/admin/orders/{id}/status: an admin cancels or refunds an order. */
export const setOrderStatusInput = z.object({
  id: uuid('Unknown order'),
  status: z.enum(['cancelled', 'refunded'], { error: 'Status must be cancelled or refunded' }),
});

export const dealerOrdersQuery = z.object({ id: uuid('Unknown dealer') });

/**
 * The webhook's body (docs/integrations.md). Exactly one way to name the dealer; a later
 * event with the same orderId changes that order's status.
 */
export const webhookOrder = z
  .object({
    orderId: externalOrderId,
    dealerId: uuid('dealerId must be a dealer id (uuid)').optional(),
    dealerEmail: email('dealerEmail is required', 'dealerEmail must be a valid email').optional(),
    externalCrmId: requiredText('externalCrmId must not be empty', 100).optional(),
    amount: orderAmount,
    orderedAt,
    status: orderStatus.default('placed'),
    eventAt: eventAt.optional(),
  })
  .strict()
  .refine((o) => [o.dealerId, o.dealerEmail, o.externalCrmId].filter((v) => v !== undefined).length === 1, {
    message: 'Give exactly one of dealerId, dealerEmail or externalCrmId',
    path: ['dealerId'],
  });
export type WebhookOrder = z.infer<typeof webhookOrder>;

/** How a dealer is named by an integration (webhook or CSV row). */
export type DealerRef = { dealerId: string } | { dealerEmail: string } | { externalCrmId: string };

/** Rows per import request: the admin console sends a file in chunks and shows the progress. */
export const IMPORT_MAX_ROWS = 500;

/** Characters per import request (the console cuts a file between records to stay under it). */
export const IMPORT_MAX_CHARS = 120_000;

/** POST /api/admin/orders/import: CSV text with a header row (see docs/integrations.md). */
export const importOrdersInput = z.object({
  csv: z
    .string({ error: 'CSV text is required' })
    .min(1, 'CSV text is required')
    .max(IMPORT_MAX_CHARS, `Send at most ${IMPORT_MAX_CHARS.toLocaleString('en-US')} characters per request`),
});

/** The columns an import file must have (any order; extra columns are ignored). */
export const IMPORT_COLUMNS = ['orderId', 'amount', 'orderedAt'] as const;
/** Optional columns: `status`, `eventAt`, and `differentOrder` (true, yes or 1: see recordOrderInput). */
export const IMPORT_OPTIONAL_COLUMNS = ['status', 'eventAt', 'differentOrder'] as const;
/** One of these names the dealer. */
export const IMPORT_DEALER_COLUMNS = ['dealerId', 'dealerEmail', 'externalCrmId'] as const;

/** Orders per page of the dealer's own order history (dashboard). */
export const DEALER_ORDERS_PAGE_SIZE = 10;

/** GET /api/dealer/orders: the signed-in dealer's own orders, paged. */
export const ownOrdersQuery = z.object({ page: pageNumber() });
