import { Container } from '@mantine/core';
import { useParams } from '@tanstack/react-router';
import { QuoteForm } from './QuoteForm';
import { StatusView } from './StatusView';

/** The homeowner's side: the quote form, or with a token the status of their installation. */
export default function QuotePage() {
  const { token } = useParams({ strict: false }) as { token?: string };
  if (token) return <StatusView token={token} />;
  return (
    <Container size="sm" py="xl">
      <QuoteForm />
    </Container>
  );
}
