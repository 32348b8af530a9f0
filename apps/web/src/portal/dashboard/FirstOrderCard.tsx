import { ORDER_FORM_HEIGHT, withoutEmbeddedFlag } from '@dn/schema';
import { Anchor, Card, Group, Text, Title } from '@mantine/core';
import classes from './FirstOrderCard.module.css';
import type { FirstOrderForm } from './types';

export function FirstOrderCard({ form }: { form: FirstOrderForm }) {
  return (
    <Card withBorder radius="md" padding="lg">
      <Group justify="space-between" mb="sm">
        <Title order={2} size="h3">
          First Order Form
        </Title>
        {form.formUrl && (
          <Anchor href={withoutEmbeddedFlag(form.formUrl)} target="_blank" rel="noopener noreferrer">
            Open in a new tab
          </Anchor>
        )}
      </Group>
      {form.formUrl ? (
        <>
          <Text size="sm" c="dimmed" mb="sm">
            {form.isRequired
              ? 'Please complete your first order to get started.'
              : 'Place your first order when you are ready.'}
          </Text>
          <iframe
            className={classes.frame}
            src={form.formUrl}
            height={ORDER_FORM_HEIGHT}
            title="First order form"
            loading="lazy"
          />
        </>
      ) : (
        <Text c="dimmed">Your first order form is not available yet. We will add it here soon.</Text>
      )}
    </Card>
  );
}
