import { FORM_PREVIEW_HEIGHT, INSTALLER_TIERS, normalizeFormUrl, withoutEmbeddedFlag } from '@dn/schema';
import { Anchor, Button, Card, Checkbox, SimpleGrid, Skeleton, Stack, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { fieldErrorsOf, useTrpc } from '../../shared/lib/trpc';
import { ADMIN_MUTATIONS } from '../shared/mutations';
import { OwnerOnlyNote } from '../shared/OwnerOnlyNote';
import { useAdminRole } from '../shared/role';
import { useAdminMutation } from '../shared/use-admin-mutation';
import classes from './admin.module.css';
import type { FormConfig } from './types';

export function FormsTab() {
  const trpc = useTrpc();
  const forms = useQuery(trpc.admin.firstOrderForms.queryOptions());
  if (forms.isLoading) return <Skeleton h={300} />;
  return (
    <SimpleGrid cols={{ base: 1, lg: 3 }}>
      {forms.data?.map((f) => (
        <FormCard key={`${f.tier}-${String(f.updatedAt)}`} form={f} />
      ))}
    </SimpleGrid>
  );
}

function FormCard({ form }: { form: FormConfig }) {
  const { can } = useAdminRole();
  // The form is the owner's setting (issue 36): the others read it, with the word why.
  const owner = can('owner');
  const forced = INSTALLER_TIERS.includes(form.tier);
  const [url, setUrl] = useState(form.formUrl ?? '');
  const [required, setRequired] = useState(forced || form.isRequired);
  const update = useAdminMutation(ADMIN_MUTATIONS.updateForm);
  const error = fieldErrorsOf(update.error)?.formUrl;
  const submit = () => {
    const formUrl = normalizeFormUrl(url);
    setUrl(formUrl);
    update.mutate({ tier: form.tier, formUrl, isRequired: forced || required });
  };
  return (
    <Card withBorder padding="md" data-testid={`form-${form.tier}`}>
      <Stack>
        <Title order={3}>{form.tier}</Title>
        <TextInput
          label="Google Form URL"
          placeholder="https://docs.google.com/forms/d/e/.../viewform"
          value={url}
          onChange={(e) => setUrl(e.currentTarget.value)}
          error={error}
          readOnly={!owner}
        />
        <Checkbox
          label="Required before the first order"
          checked={forced || required}
          disabled={forced || !owner}
          onChange={(e) => setRequired(e.currentTarget.checked)}
        />
        {owner ? (
          <Button onClick={submit} loading={update.isPending}>
            Update
          </Button>
        ) : (
          <OwnerOnlyNote />
        )}
        {form.formUrl && (
          <>
            <iframe
              title={`${form.tier} first order form preview`}
              src={form.formUrl}
              height={FORM_PREVIEW_HEIGHT}
              className={classes.preview}
              sandbox="allow-scripts allow-forms allow-same-origin allow-popups"
            />
            <Anchor href={withoutEmbeddedFlag(form.formUrl)} target="_blank" rel="noopener noreferrer">
              View full form
            </Anchor>
          </>
        )}
      </Stack>
    </Card>
  );
}
