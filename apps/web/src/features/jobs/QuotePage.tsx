import { Container } from '@mantine/core';
import { QuoteForm } from './QuoteForm';

export default function QuotePage() {
  return (
    <Container size="sm" py="xl">
      <QuoteForm />
    </Container>
  );
}
