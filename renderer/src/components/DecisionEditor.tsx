import { useState } from 'react';
import { Button, Group, NumberInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { MAX_DECIDED_SECTIONS, MAX_DECISION_REASON } from '../../../core/domain/decisions';
import { ApiError } from '../api/errors';
import { notifyError } from '../lib/notify';
import type { Run, RunEntry } from '../api/wire';
import { decideOnRun } from '../controllers/predictions';

type Choice = 'model' | 'offer' | 'skip';

/** The editor's controller: the decision as staff set it, and Save, which shows a refusal beside the field it is about. */
function useDecision(run: Run, entry: RunEntry) {
  const [choice, setChoice] = useState<Choice>(entry.staff_decision ?? 'model');
  const [sections, setSections] = useState<number | string>(entry.staff_sections ?? entry.planned_sections);
  const [reason, setReason] = useState(entry.staff_reason ?? '');
  const [saving, setSaving] = useState(false);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const save = async (): Promise<void> => {
    setSaving(true);
    setFieldErrors({});
    try {
      if (choice === 'model') await decideOnRun(run, entry.course_code, { decision: null });
      else
        await decideOnRun(run, entry.course_code, {
          decision: choice,
          sections: choice === 'offer' && typeof sections === 'number' ? sections : null,
          reason: reason.trim() === '' ? null : reason,
        });
    } catch (error) {
      if (error instanceof ApiError && error.fields.length > 0) setFieldErrors(Object.fromEntries(error.fields.map((f) => [f.field, f.message])));
      else notifyError(error, 'The decision was not saved');
    } finally {
      setSaving(false);
    }
  };
  return { choice, setChoice, sections, setSections, reason, setReason, saving, fieldErrors, save };
}

/**
 * Staff's decision on one course of a run, beside the model's: offer or skip, how many sections,
 * and why. "Model's call" clears staff's decision.
 */
export function DecisionEditor({ run, entry }: { run: Run; entry: RunEntry }) {
  const decision = useDecision(run, entry);
  const { choice, fieldErrors } = decision;
  const modelSays = `${entry.offer ? `offer, ${entry.projected_sections} section${entry.projected_sections === 1 ? '' : 's'}` : 'skip'}`;
  return (
    <Stack gap={6} data-testid="decision-editor">
      <Text size="sm" fw={600}>
        Your decision{' '}
        <Text span size="sm" c="dimmed" fw={400}>
          (the model says {modelSays})
        </Text>
      </Text>
      <SegmentedControl
        size="xs"
        value={choice}
        onChange={(v) => decision.setChoice(v)}
        data={[
          { value: 'model', label: "Model's call" },
          { value: 'offer', label: 'Offer' },
          { value: 'skip', label: 'Skip' },
        ]}
        aria-label={`Decision on ${entry.course_code}`}
        data-testid="decision-choice"
      />
      <Group gap="xs" align="flex-start" wrap="nowrap">
        <NumberInput
          size="xs"
          label="Sections"
          min={1}
          max={MAX_DECIDED_SECTIONS}
          allowDecimal={false}
          value={choice === 'offer' ? decision.sections : ''}
          onChange={decision.setSections}
          disabled={choice !== 'offer'}
          error={fieldErrors.sections}
          w={90}
          data-testid="decision-sections"
        />
        <TextInput
          size="xs"
          label="Reason"
          placeholder="e.g. accreditation visit, instructor on leave"
          maxLength={MAX_DECISION_REASON}
          value={choice === 'model' ? '' : decision.reason}
          onChange={(e) => decision.setReason(e.currentTarget.value)}
          disabled={choice === 'model'}
          error={fieldErrors.reason ?? fieldErrors.decision}
          style={{ flex: 1 }}
          data-testid="decision-reason"
        />
      </Group>
      <Group gap="xs">
        <Button size="xs" onClick={() => void decision.save()} loading={decision.saving} data-testid="decision-save">
          Save decision
        </Button>
        {entry.staff_decision !== null && entry.decided_at !== null && (
          <Text size="xs" c="dimmed">
            Decided {new Date(entry.decided_at).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' })}
          </Text>
        )}
      </Group>
    </Stack>
  );
}
