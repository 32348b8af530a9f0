import type { ComplianceDocumentStatus } from '@dn/schema';
import { Badge } from '@mantine/core';

/** Filled, in shades with white text at 5:1 or more (WCAG AA); the light variants' pale text is not. */
const LOOK: Record<ComplianceDocumentStatus, { color: string; label: string }> = {
  pending: { color: 'blue.9', label: 'Pending review' },
  verified: { color: 'teal.9', label: 'Verified' },
  rejected: { color: 'red.9', label: 'Rejected' },
};

/** A compliance document's review status (issue 45). */
export function DocumentStatusBadge({ status }: { status: ComplianceDocumentStatus }) {
  const look = LOOK[status];
  return (
    <Badge color={look.color} variant="filled" data-testid="document-status">
      {look.label}
    </Badge>
  );
}

export const formatBytes = (n: number) =>
  n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : n >= 1024 ? `${Math.round(n / 1024)} KB` : `${n} B`;
