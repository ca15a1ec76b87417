import { Badge, Button, Checkbox, Group, Modal, MultiSelect, NumberInput, Progress, ScrollArea, Stack, Switch, Table, Text } from '@mantine/core';
import type { Term } from '../api/wire';
import { termLabel } from '../../../core/domain/terms';
import { useCampusAutofill, useCampusDepartments, type CampusDraftShown, type CampusOptions, type CampusProgress } from '../controllers/campus-autofill';
import { ErrorNote } from './ErrorNote';

/** Moves listed in the dialog at most (the rest are counted). */
const LISTED_MOVES = 200;

function CampusOptionsForm({ options, onChange }: { options: CampusOptions; onChange: (next: CampusOptions) => void }) {
  const departments = useCampusDepartments();
  return (
    <Stack gap="xs">
      <Switch
        label="Rebuild from nothing (else improve the timetable as it is: moving a meeting costs)"
        checked={options.rebuild}
        onChange={(e) => onChange({ ...options, rebuild: e.currentTarget.checked })}
        data-testid="campus-autofill-rebuild"
      />
      <MultiSelect
        label="Departments whose meetings move"
        placeholder="Every department"
        data={departments}
        value={options.departments}
        onChange={(departments) => onChange({ ...options, departments })}
        searchable
        clearable
        data-testid="campus-autofill-departments"
      />
      <Group grow>
        <NumberInput
          label="Search time (seconds)"
          min={1}
          max={120}
          value={(options.time_budget_ms ?? 30_000) / 1000}
          onChange={(v) => onChange({ ...options, time_budget_ms: Math.round(Math.min(120, Math.max(1, Number(v) || 1)) * 1000) })}
        />
        <NumberInput label="Seed" min={1} value={options.seed} onChange={(v) => onChange({ ...options, seed: Math.max(1, Math.round(Number(v) || 1)) })} />
      </Group>
    </Stack>
  );
}

function DepartmentParts({ draft, chosen, onToggle }: { draft: CampusDraftShown['result']; chosen: ReadonlySet<string>; onToggle: (code: string) => void }) {
  return (
    <Table striped withTableBorder data-testid="campus-autofill-parts">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Apply</Table.Th>
          <Table.Th>Department</Table.Th>
          <Table.Th>Moved</Table.Th>
          <Table.Th>Without a time</Table.Th>
          <Table.Th>What changes</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {draft.departments.map((d) => (
          <Table.Tr key={d.code} data-testid={`campus-part-${d.code}`}>
            <Table.Td>
              <Checkbox aria-label={`Apply ${d.code}'s part`} checked={chosen.has(d.code)} onChange={() => onToggle(d.code)} />
            </Table.Td>
            <Table.Td>{d.code}</Table.Td>
            <Table.Td>{d.moved}</Table.Td>
            <Table.Td>{d.unplaced}</Table.Td>
            <Table.Td>{d.summary.replace(/^[^:]*: /, '')}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

function DraftMoves({ draft }: { draft: CampusDraftShown['result'] }) {
  return (
    <ScrollArea.Autosize mah={260}>
      <Stack gap={2} data-testid="campus-autofill-moves">
        {draft.unplaced.map((u) => (
          <Text key={`u${u.id}`} size="xs" c="red">
            {u.department} · {u.course_code} §{u.section_name}: {u.reason}
          </Text>
        ))}
        {draft.moved.slice(0, LISTED_MOVES).map((m) => (
          <Text key={`m${m.id}`} size="xs">
            {m.department} · {m.course_code} §{m.section_name}: {m.was.day} {m.was.start_time} {m.was.room} → {m.day} {m.start_time} {m.room}
          </Text>
        ))}
        {draft.moved.length > LISTED_MOVES && <Text size="xs">…and {draft.moved.length - LISTED_MOVES} more moves</Text>}
      </Stack>
    </ScrollArea.Autosize>
  );
}

/** A campus draft being made: the classes placed so far, the best penalty, and Stop (the best draft so far is kept). */
function DraftProgress({ progress, onStop }: { progress: CampusProgress; onStop: () => void }) {
  const placed = progress.classes === 0 ? 0 : progress.placed / progress.classes;
  return (
    <Group justify="space-between" data-testid="campus-autofill-progress">
      <Stack gap={2} style={{ flex: 1 }}>
        <Text size="sm">
          {progress.phase === 'starting'
            ? 'Reading the campus and building the problem…'
            : progress.phase === 'construction'
              ? `Placing meetings: ${progress.placed} of ${progress.classes}`
              : `Improving: penalty ${progress.best_total ?? '—'} (lower is better)`}
        </Text>
        <Progress value={progress.phase === 'optimization' ? 100 : placed * 100} animated aria-label="Campus draft progress" />
      </Stack>
      <Button variant="default" size="xs" onClick={onStop} data-testid="campus-autofill-stop">
        Stop and keep the best so far
      </Button>
    </Group>
  );
}

/**
 * Campus → Auto-fill the campus…: the registrar drafts every department's meetings of the term at
 * once, reads each department's part, and applies the whole draft or the departments chosen.
 */
export function CampusAutofillDialog({
  opened,
  term,
  onClose,
  onShow,
}: {
  opened: boolean;
  term: Term;
  onClose: () => void;
  /** Shows the draft on the campus week (the dialog keeps it, to apply). */
  onShow: (draft: CampusDraftShown) => void;
}) {
  const fill = useCampusAutofill(term, onClose);
  const close = (): void => {
    fill.reset();
    onClose();
  };
  return (
    <Modal opened={opened} onClose={close} title={`Auto-fill the campus: ${termLabel(term)}`} size="xl">
      <Stack>
        <Text size="sm" c="dimmed">
          Every department&apos;s meetings that are not locked move in one search, over the shared rooms and the instructors&apos; one calendar. Each
          department&apos;s scheduler sees their part of the draft in their Scheduler before you apply it.
        </Text>
        <CampusOptionsForm options={fill.options} onChange={fill.setOptions} />
        <ErrorNote message={fill.error} />
        {fill.running && <DraftProgress progress={fill.running.progress} onStop={() => void fill.stop()} />}
        {fill.draft && (
          <Stack gap="xs">
            <Group gap="xs">
              <Badge color={fill.draft.result.hard_violations === 0 ? 'green' : 'red'} variant="light">
                {fill.draft.result.hard_violations === 0 ? 'No clashes left' : `${fill.draft.result.hard_violations} clashes among meetings it may not move`}
              </Badge>
              <Text size="sm" data-testid="campus-autofill-headline">
                Moves {fill.draft.result.moved.length} meetings in {fill.draft.result.departments.length} departments; {fill.draft.result.unplaced.length} left
                without a time
              </Text>
            </Group>
            <DepartmentParts draft={fill.draft.result} chosen={fill.chosen} onToggle={fill.toggle} />
            <DraftMoves draft={fill.draft.result} />
          </Stack>
        )}
        <Group justify="end">
          {fill.draft && (
            <Button variant="default" onClick={() => fill.draft && onShow(fill.draft)} data-testid="campus-autofill-show">
              Show on the campus week
            </Button>
          )}
          <Button variant="default" onClick={() => void fill.make()} loading={fill.busy === 'drafting'} data-testid="campus-autofill-draft">
            {fill.draft ? 'Draft again' : 'Draft'}
          </Button>
          <Button
            onClick={() => void fill.apply()}
            loading={fill.busy === 'applying'}
            disabled={fill.draft === null || fill.chosen.size === 0}
            data-testid="campus-autofill-apply"
          >
            {fill.draft && fill.chosen.size < fill.draft.result.departments.length ? `Apply ${fill.chosen.size} departments` : 'Apply'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
