import { COMPLIANCE_KIND_LABELS, COMPLIANCE_MESSAGES } from '@dn/schema';
import { Anchor, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { useTrpc } from '../../shared/lib/trpc';
import { DocumentStatusBadge, formatBytes } from '../../shared/onboarding/DocumentStatus';
import { useAdminRole } from '../shared/role';

/**
 * Owners and reviewers check compliance documents (issue 45): open the file, then verify it or
 * reject it with a reason the dealer is emailed. Used on the dealer's page and in the queue.
 */

export interface ReviewableDocument {
  id: string;
  kind: 'insurance' | 'licence';
  status: 'pending' | 'verified' | 'rejected';
  expiresOn: string;
  fileName: string | null;
  sizeBytes: number | null;
  hasFile: boolean;
  note: string | null;
  rejectionReason?: string | null;
}

export function DocumentReview({ doc, dealerId }: { doc: ReviewableDocument; dealerId: string }) {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const { can } = useAdminRole();
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | undefined>();
  const refresh = () => {
    void queryClient.invalidateQueries({ queryKey: trpc.onboarding.dealer.queryKey({ id: dealerId }) });
    void queryClient.invalidateQueries({ queryKey: trpc.onboarding.complianceQueue.pathKey() });
  };
  const failed = (e: { message: string }) =>
    notifications.show({ color: 'red', title: 'Not saved', message: e.message });
  const verify = useMutation(
    trpc.onboarding.verifyDocument.mutationOptions({
      onSuccess: () => {
        notifications.show({
          color: 'green',
          title: 'Verified',
          message: `${COMPLIANCE_KIND_LABELS[doc.kind]} verified`,
        });
        refresh();
      },
      onError: failed,
    }),
  );
  const reject = useMutation(
    trpc.onboarding.rejectDocument.mutationOptions({
      onSuccess: () => {
        notifications.show({ color: 'green', title: 'Rejected', message: 'The dealer is emailed the reason.' });
        setRejecting(false);
        refresh();
      },
      onError: failed,
    }),
  );
  const label = COMPLIANCE_KIND_LABELS[doc.kind];
  return (
    <Stack gap={4} data-testid={`document-${doc.id}`}>
      <Group gap="xs" wrap="wrap">
        <DocumentStatusBadge status={doc.status} />
        <Text size="sm" fw={500}>
          {label}
        </Text>
        <Text size="sm" c="dimmed">
          expires {doc.expiresOn}
          {doc.sizeBytes ? ` · ${formatBytes(doc.sizeBytes)}` : ''}
        </Text>
        {doc.hasFile ? (
          <Anchor
            size="sm"
            href={`/api/admin/compliance/documents/${doc.id}/file`}
            aria-label={`Open ${label} ${doc.fileName}`}
          >
            Open {doc.fileName}
          </Anchor>
        ) : (
          <Text size="sm" c="dimmed">
            No file: {doc.note ?? 'typed before certificates were required'}
          </Text>
        )}
      </Group>
      {doc.status === 'rejected' && doc.rejectionReason && (
        <Text size="sm" c="red.9">
          Rejected: {doc.rejectionReason}
        </Text>
      )}
      {doc.status === 'pending' && can('reviewer') && (
        <Group gap="xs" wrap="wrap">
          {doc.hasFile && (
            <Button size="xs" loading={verify.isPending} onClick={() => verify.mutate({ id: doc.id })}>
              Verify
            </Button>
          )}
          {!rejecting && (
            <Button size="xs" variant="default" onClick={() => setRejecting(true)}>
              Reject
            </Button>
          )}
        </Group>
      )}
      {rejecting && (
        <form
          noValidate
          onSubmit={(e) => {
            e.preventDefault();
            if (!reason.trim()) {
              setError(COMPLIANCE_MESSAGES.rejectReasonRequired);
              return;
            }
            reject.mutate({ id: doc.id, reason: reason.trim() });
          }}
        >
          <Group align="flex-end" gap="xs" wrap="wrap">
            <TextInput
              label="Reason (emailed to the dealer)"
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
              error={error}
              maxLength={500}
              style={{ flex: '1 1 16rem' }}
            />
            <Button size="xs" color="red" type="submit" loading={reject.isPending}>
              Reject document
            </Button>
            <Button size="xs" variant="subtle" onClick={() => setRejecting(false)}>
              Cancel
            </Button>
          </Group>
        </form>
      )}
    </Stack>
  );
}

/** The console's queue of documents waiting for review, oldest first (the Dealers section; reviewers and up). */
export default function ComplianceQueue() {
  const trpc = useTrpc();
  const { can } = useAdminRole();
  // Viewers are refused by the server (403) and shown nothing; the role only spares them the request.
  const q = useQuery({ ...trpc.onboarding.complianceQueue.queryOptions({ page: 1 }), enabled: can('reviewer') });
  if (!q.data) return null;
  const docs = q.data.documents;
  return (
    <Paper
      withBorder
      p="md"
      component="section"
      aria-label="Compliance documents to check"
      data-testid="compliance-queue"
    >
      <Stack gap="sm">
        <Title order={2} size="h4">
          Compliance documents to check ({docs.length}
          {q.data.hasMore ? '+' : ''})
        </Title>
        {docs.length === 0 && (
          <Text size="sm" c="dimmed">
            No documents are waiting.
          </Text>
        )}
        {docs.map((d) => (
          <Paper key={d.id} withBorder p="xs" data-testid="queue-item">
            <Stack gap={4}>
              <Text size="sm" fw={500}>
                <Link to="/admin/dealers/$id" params={{ id: d.dealerId }}>
                  {d.fullName}
                  {d.companyName ? ` (${d.companyName})` : ''}
                </Link>
              </Text>
              <DocumentReview doc={{ ...d, status: 'pending' }} dealerId={d.dealerId} />
            </Stack>
          </Paper>
        ))}
      </Stack>
    </Paper>
  );
}
