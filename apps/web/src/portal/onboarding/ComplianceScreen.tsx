import {
  CALL_TIME_ZONE,
  COMPLIANCE_KIND_LABELS,
  COMPLIANCE_MESSAGES,
  type ComplianceDocumentKind,
  complianceDocumentFields,
  MAX_COMPLIANCE_FILE_BYTES,
  fieldErrorsOf as schemaFieldErrors,
  todayIn,
} from '@dn/schema';
import { Alert, Anchor, Button, FileInput, Group, Paper, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError, postForm } from '../../shared/lib/api';
import { useTrpc } from '../../shared/lib/trpc';
import { DocumentStatusBadge, formatBytes } from '../../shared/onboarding/DocumentStatus';
import type { StepOf } from '../../shared/onboarding/types';

type Step = StepOf<'insurance'> | StepOf<'license'>;

/** What the dealer is told of their latest document of a kind. */
function LatestStatus({ step, label }: { step: Step; label: string }) {
  const latest = step.documents[0];
  if (step.done) {
    return (
      <Text size="sm">
        Verified: your {label.toLowerCase()} is current until {step.expiresOn}.
      </Text>
    );
  }
  if (!latest)
    return <Text size="sm">Upload your {label.toLowerCase()}: our team checks it before jobs are offered.</Text>;
  if (latest.status === 'rejected') {
    return (
      <Alert color="red" variant="light" title={`Your ${label.toLowerCase()} was not accepted`} p="xs">
        <Text size="sm" data-testid="rejection-reason">
          {latest.rejectionReason}
        </Text>
        <Text size="sm">Upload a corrected one below.</Text>
      </Alert>
    );
  }
  if (!latest.hasFile) {
    return (
      <Text size="sm">
        You typed an expiry date ({latest.expiresOn}) before certificates were required: upload the{' '}
        {label.toLowerCase()} itself so our team can verify it.
      </Text>
    );
  }
  return (
    <Text size="sm">
      Waiting for review: our team checks your {label.toLowerCase()} (expires {latest.expiresOn}) before jobs are
      offered.
    </Text>
  );
}

function DocumentUpload({ kind, step }: { kind: ComplianceDocumentKind; step: Step }) {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const label = COMPLIANCE_KIND_LABELS[kind];
  const [file, setFile] = useState<File | null>(null);
  const [expiresOn, setExpiresOn] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const upload = useMutation({
    mutationFn: (form: FormData) => postForm<{ id: string; status: string }>('/api/dealer/compliance/documents', form),
    onSuccess: () => {
      notifications.show({
        color: 'green',
        title: 'Uploaded',
        message: `Your ${label.toLowerCase()} is waiting for review.`,
      });
      setFile(null);
      setExpiresOn('');
      setErrors({});
      void queryClient.invalidateQueries({ queryKey: trpc.onboarding.mine.queryKey() });
    },
    onError: (error) => {
      const message = error instanceof ApiError ? (error.body?.message ?? error.message) : error.message;
      setErrors(error instanceof ApiError ? (error.body?.fieldErrors ?? { file: message }) : { file: message });
      notifications.show({ color: 'red', title: 'Not uploaded', message });
    },
  });
  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const parsed = complianceDocumentFields.safeParse({ kind, expiresOn });
    const found: Record<string, string> = parsed.success ? {} : schemaFieldErrors(parsed.error);
    if (parsed.success && expiresOn < todayIn(CALL_TIME_ZONE)) found.expiresOn = COMPLIANCE_MESSAGES.expiredOnUpload;
    if (!file) found.file = COMPLIANCE_MESSAGES.fileRequired;
    else if (file.size > MAX_COMPLIANCE_FILE_BYTES) found.file = COMPLIANCE_MESSAGES.fileTooLarge;
    setErrors(found);
    if (Object.keys(found).length > 0 || !file) return;
    const form = new FormData();
    form.append('kind', kind);
    form.append('expiresOn', expiresOn);
    form.append('file', file, file.name);
    upload.mutate(form);
  };
  return (
    <Paper withBorder p="sm" data-testid={`compliance-${kind}`}>
      <Stack gap="xs">
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text fw={500}>{label}</Text>
          {step.documents[0] && <DocumentStatusBadge status={step.done ? 'verified' : step.documents[0].status} />}
        </Group>
        <LatestStatus step={step} label={label} />
        <form noValidate onSubmit={submit}>
          <Stack gap="xs">
            <SimpleGrid cols={{ base: 1, sm: 2 }}>
              <FileInput
                label={`${label} file`}
                description="PDF, PNG or JPEG, up to 10 MB"
                accept="application/pdf,image/png,image/jpeg"
                clearable
                withAsterisk
                value={file}
                onChange={setFile}
                error={errors.file}
              />
              <TextInput
                label={`${label} expires on`}
                type="date"
                withAsterisk
                value={expiresOn}
                onChange={(e) => setExpiresOn(e.currentTarget.value)}
                error={errors.expiresOn}
              />
            </SimpleGrid>
            <Group>
              <Button type="submit" loading={upload.isPending}>
                Upload {label.toLowerCase()}
              </Button>
            </Group>
          </Stack>
        </form>
        {step.documents.some((d) => d.hasFile) && (
          <Stack gap={2}>
            <Text size="xs" c="dimmed">
              Your uploads
            </Text>
            {step.documents
              .filter((d) => d.hasFile)
              .map((d) => (
                <Group key={d.id} gap="xs" wrap="wrap">
                  <Anchor size="sm" href={`/api/dealer/compliance/documents/${d.id}/file`}>
                    {d.fileName}
                  </Anchor>
                  <Text size="xs" c="dimmed">
                    {formatBytes(d.sizeBytes ?? 0)} · expires {d.expiresOn}
                  </Text>
                  <DocumentStatusBadge status={d.status} />
                </Group>
              ))}
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}

/**
 * The insurance certificate and contractor licence (issue 45): each uploaded as a file with its
 * expiry date, then checked by our team; the step is done once each is verified and current.
 */
export function ComplianceScreen({
  insurance,
  license,
}: {
  insurance: StepOf<'insurance'>;
  license: StepOf<'license'>;
}) {
  return (
    <Stack gap="sm" data-testid="compliance-screen">
      <DocumentUpload kind="insurance" step={insurance} />
      <DocumentUpload kind="licence" step={license} />
    </Stack>
  );
}
