import { Badge, Button, Checkbox, Group, Modal, MultiSelect, NumberInput, ScrollArea, Stack, Switch, Table, Text } from '@mantine/core';
import { useLive } from '../api/live';
import type { Term } from '../api/wire';
import { termLabel } from '../../../core/domain/terms';
import { useCampusAutofill, type CampusDraft, type CampusOptions } from '../controllers/campus-autofill';
import { ErrorNote } from './ErrorNote';

/** Moves listed in the dialog at most (the rest are counted). */
const LISTED_MOVES = 200;

function CampusOptionsForm({ options, onChange }: { options: CampusOptions; onChange: (next: CampusOptions) => void }) {
  const departments = useLive('departments-list', {}).data ?? [];
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
        data={departments.map((d) => ({ value: d.code, label: `${d.code} · ${d.name}` }))}
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

function DepartmentParts({ draft, chosen, onToggle }: { draft: CampusDraft; chosen: ReadonlySet<string>; onToggle: (code: string) => void }) {
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

function DraftMoves({ draft }: { draft: CampusDraft }) {
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

/**
 * Campus → Auto-fill the campus…: the registrar drafts every department's meetings of the term at
 * once, reads each department's part, and applies the whole draft or the departments chosen.
 */
export function CampusAutofillDialog({ opened, term, onClose }: { opened: boolean; term: Term; onClose: () => void }) {
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
        {fill.draft && (
          <Stack gap="xs">
            <Group gap="xs">
              <Badge color={fill.draft.hard_violations === 0 ? 'green' : 'red'} variant="light">
                {fill.draft.hard_violations === 0 ? 'No clashes left' : `${fill.draft.hard_violations} clashes among meetings it may not move`}
              </Badge>
              <Text size="sm" data-testid="campus-autofill-headline">
                Moves {fill.draft.moved.length} meetings in {fill.draft.departments.length} departments; {fill.draft.unplaced.length} left without a time
              </Text>
            </Group>
            <DepartmentParts draft={fill.draft} chosen={fill.chosen} onToggle={fill.toggle} />
            <DraftMoves draft={fill.draft} />
          </Stack>
        )}
        <Group justify="end">
          <Button variant="default" onClick={() => void fill.make()} loading={fill.busy === 'drafting'} data-testid="campus-autofill-draft">
            {fill.draft ? 'Draft again' : 'Draft'}
          </Button>
          <Button
            onClick={() => void fill.apply()}
            loading={fill.busy === 'applying'}
            disabled={fill.draft === null || fill.chosen.size === 0}
            data-testid="campus-autofill-apply"
          >
            {fill.draft && fill.chosen.size < fill.draft.departments.length ? `Apply ${fill.chosen.size} departments` : 'Apply'}
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}
