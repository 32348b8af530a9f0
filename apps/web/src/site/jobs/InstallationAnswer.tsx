import { displayMoney, jobReviewFields, RATING_MAX, fieldErrorsOf as zodFieldErrors } from '@dn/schema';
import { Alert, Button, Card, Checkbox, Group, Rating, SimpleGrid, Stack, Text, Textarea } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { fieldErrorsOf, useTrpc } from '../../shared/lib/trpc';

type Installation = {
  amount: string | null;
  answer: 'confirmed' | 'disputed' | null;
  canAnswer: boolean;
};
type Review = { rating: number; comment: string | null; publicConsent: boolean } | null;

const starsLabel = (n: number) => `${n} ${n === 1 ? 'star' : 'stars'}`;

/**
 * Issues 45 and 50 (decision 1100): once installed, the homeowner says whether it was done and rates
 * the installer in ONE step: the stars, a comment and the consent come first, then the question, whose
 * two answers send the confirmation (POST .../confirm) and, when stars were given, the review (POST
 * .../review). Both are checked by the shared schema before either is sent. Answered without stars,
 * the rating is asked alone; each is given once.
 */
export function InstallationAnswer({
  token,
  installation,
  review,
  canReview,
}: {
  token: string;
  installation: Installation;
  review: Review;
  canReview: boolean;
}) {
  const trpc = useTrpc();
  const queryClient = useQueryClient();
  const [rating, setRating] = useState(0);
  const [comment, setComment] = useState('');
  const [consent, setConsent] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failed, setFailed] = useState<string | null>(null);
  const answer = useMutation(trpc.jobs.answerInstallation.mutationOptions());
  const rate = useMutation(trpc.jobs.reviewInstallation.mutationOptions());
  const busy = answer.isPending || rate.isPending;

  /** Sends the answer (when given) and the review (when stars or a comment were given). */
  async function submit(confirmed: boolean | null) {
    setFailed(null);
    const wantsReview = canReview && (rating > 0 || comment.trim() !== '' || confirmed === null);
    const parsed = wantsReview
      ? jobReviewFields.safeParse({ rating: rating || undefined, comment, publicConsent: consent })
      : null;
    if (parsed && !parsed.success) {
      setErrors(zodFieldErrors(parsed.error));
      return;
    }
    setErrors({});
    try {
      if (confirmed !== null) await answer.mutateAsync({ token, confirmed });
      if (parsed?.success) await rate.mutateAsync({ token, ...parsed.data });
    } catch (e) {
      const fields = fieldErrorsOf(e);
      if (fields) setErrors(fields);
      else setFailed(e instanceof Error ? e.message : 'Not sent: please try again');
    } finally {
      await queryClient.invalidateQueries({ queryKey: trpc.jobs.statusPage.queryKey({ token }) });
    }
  }

  const reviewFields = canReview && (
    <Stack gap="xs" data-testid="review-fields">
      <Text fw={600} id="review-stars-label">
        {installation.canAnswer ? 'Rate your installer (optional)' : 'How did your installer do?'}
      </Text>
      <Rating
        value={rating}
        onChange={(v) => {
          setRating(v);
          setErrors((e) => ({ ...e, rating: '' }));
        }}
        count={RATING_MAX}
        size={40}
        getSymbolLabel={starsLabel}
        aria-labelledby="review-stars-label"
        data-testid="review-stars"
      />
      {errors.rating && (
        <Text size="sm" c="red" role="alert">
          {errors.rating}
        </Text>
      )}
      <Textarea
        label="Comment (optional)"
        description="Text only: no links or email addresses."
        autosize
        minRows={2}
        maxLength={2000}
        value={comment}
        onChange={(e) => {
          setComment(e.currentTarget.value);
          setErrors((er) => ({ ...er, comment: '' }));
        }}
        error={errors.comment || undefined}
      />
      <Checkbox
        label="You may show my rating and comment publicly (without my name)"
        checked={consent}
        onChange={(e) => setConsent(e.currentTarget.checked)}
      />
    </Stack>
  );

  return (
    <>
      {installation.answer && (
        <Alert color={installation.answer === 'confirmed' ? 'green' : 'orange'} data-testid="installation-answer">
          {installation.answer === 'confirmed'
            ? 'Thank you: you confirmed your installation was completed.'
            : 'Thank you: you told us the installation was not completed. Our team will contact you.'}
        </Alert>
      )}
      {review && (
        <Alert color="green" data-testid="installation-reviewed">
          <Group gap="xs">
            <Text span>Thank you for rating your installer:</Text>
            <Rating
              value={review.rating}
              readOnly
              count={RATING_MAX}
              role="img"
              aria-label={starsLabel(review.rating)}
            />
            <Text span>{starsLabel(review.rating)}</Text>
          </Group>
          {review.comment && (
            <Text size="sm" mt={4} style={{ whiteSpace: 'pre-wrap' }}>
              “{review.comment}”
            </Text>
          )}
        </Alert>
      )}
      {installation.canAnswer ? (
        <Card withBorder data-testid="installation-question">
          <Stack gap="sm">
            {reviewFields}
            <Text fw={600}>Was your installation completed?</Text>
            {installation.amount && <Text>Amount {displayMoney(installation.amount)}</Text>}
            {failed && <Alert color="red">{failed}</Alert>}
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="sm">
              <Button loading={busy} onClick={() => void submit(true)}>
                Yes, it was completed
              </Button>
              <Button variant="light" color="red" loading={busy} onClick={() => void submit(false)}>
                No, it was not
              </Button>
            </SimpleGrid>
          </Stack>
        </Card>
      ) : (
        canReview && (
          <Card withBorder data-testid="installation-review">
            <Stack gap="sm">
              {reviewFields}
              {failed && <Alert color="red">{failed}</Alert>}
              <Button loading={busy} onClick={() => void submit(null)}>
                Send my rating
              </Button>
            </Stack>
          </Card>
        )
      )}
    </>
  );
}
