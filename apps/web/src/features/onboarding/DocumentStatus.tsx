import type { ComplianceDocumentStatus } from '@dn/schema';
import { Badge } from '@mantine/core';

const LOOK: Record<ComplianceDocumentStatus, { color: string; label: string }> = {
  pending: { color: 'yellow', label: 'Pending review' },
  verified: { color: 'green', label: 'Verified' },
  rejected: { color: 'red', label: 'Rejected' },
};

/** A compliance document's review status (issue 45). */
export function DocumentStatusBadge({ status }: { status: ComplianceDocumentStatus }) {
  const look = LOOK[status];
  return (
    <Badge color={look.color} variant="light" data-testid="document-status">
      {look.label}
    </Badge>
  );
}

export const formatBytes = (n: number) =>
  n >= 1024 * 1024 ? `${(n / 1024 / 1024).toFixed(1)} MB` : n >= 1024 ? `${Math.round(n / 1024)} KB` : `${n} B`;
