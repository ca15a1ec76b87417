import { Alert, Button, Group, Stack, Text } from '@mantine/core';
import type { Term } from '../api/wire';
import type { DraftRun } from '../controllers/scheduler';
import { campusPartForReview, useCampusDrafts } from '../controllers/campus-autofill';
import { useRole } from '../controllers/session';
import { notifyError } from '../lib/notify';

/** Said on a department's part of the registrar's draft: it is reviewed here, applied by the registrar. */
export const CAMPUS_PART_READ_ONLY = "Your department's part of the registrar's campus auto-fill: the registrar applies it";

/**
 * The registrar's campus auto-fill drafts with a part for this department (not applied yet): what
 * they would change here, and a way to review that part on the week, read-only.
 */
export function CampusDraftNotice({ term, onReview }: { term: Term; onReview: (run: DraftRun) => void }) {
  const { isRegistrar } = useRole();
  const drafts = useCampusDrafts(isRegistrar ? null : term);
  if (isRegistrar || drafts.length === 0) return null;
  const review = async (draft: (typeof drafts)[number]): Promise<void> => {
    try {
      const result = await campusPartForReview(draft);
      onReview({ request: { source: 'term' }, result, draftId: draft.draft_id, readOnly: CAMPUS_PART_READ_ONLY });
    } catch (e) {
      notifyError(e, 'The campus draft could not be opened');
    }
  };
  return (
    <Stack gap="xs" className="tw-no-print">
      {drafts.map((draft) => (
        <Alert key={draft.draft_id} color="blue" title="The registrar is drafting the whole campus" data-testid="campus-draft-notice">
          <Group justify="space-between" align="center">
            <Text size="sm">
              {draft.departments.map((d) => d.summary).join('; ')} (draft of{' '}
              {new Date(draft.made_at).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}
              {draft.rebuild ? ', rebuilt from nothing' : ''}).
            </Text>
            <Button size="xs" variant="default" onClick={() => void review(draft)} data-testid="campus-draft-review">
              Review our part
            </Button>
          </Group>
        </Alert>
      ))}
    </Stack>
  );
}
