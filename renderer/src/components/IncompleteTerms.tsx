import { useState } from 'react';
import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import { notifyError } from '../lib/notify';
import { confirmCompleteTerm } from '../controllers/data';
import { useIncompleteTerms } from '../controllers/data';
import type { IncompleteTerm } from '../api/wire';
import { useRole } from '../controllers/session';
import { termLabel } from '../../../core/domain/terms';

const key = (t: IncompleteTerm): string => `${t.campus}|${t.year}|${t.semester}`;

/**
 * Terms whose report lists far fewer courses than the campus's usual terms: left out of the
 * recommendations until staff confirm them complete (or upload them again in full).
 */
export function IncompleteTerms() {
  const { canWrite } = useRole();
  const incompleteTerms = useIncompleteTerms();
  const [busy, setBusy] = useState<string | null>(null);
  if (incompleteTerms.length === 0) return null;
  const confirm = async (term: IncompleteTerm): Promise<void> => {
    setBusy(key(term));
    try {
      // The list loads again on the change event.
      await confirmCompleteTerm(term);
    } catch (error) {
      notifyError(error, 'The term was not confirmed');
    } finally {
      setBusy(null);
    }
  };
  return (
    <Alert color="yellow" title="Terms that look incomplete" data-testid="incomplete-terms">
      <Stack gap={6}>
        <Text size="sm">
          These terms are left out of the recommendations, as if no report existed, until you confirm them complete or upload them again in full.
        </Text>
        {incompleteTerms.map((term) => (
          <Group key={key(term)} justify="space-between" wrap="nowrap" data-testid="incomplete-term">
            <Text size="sm">{term.message}</Text>
            {canWrite && (
              <Button
                size="xs"
                variant="default"
                loading={busy === key(term)}
                onClick={() => void confirm(term)}
                aria-label={`${termLabel(term)} at ${term.campus} is complete`}
              >
                It is complete
              </Button>
            )}
          </Group>
        ))}
      </Stack>
    </Alert>
  );
}
