import {
  Alert,
  Badge,
  Button,
  Card,
  Group,
  List,
  NumberInput,
  Progress,
  ScrollArea,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Switch,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { modelDetails, outOf100 } from '../lib/model-words';
import { DataGrid } from '../components/DataGrid';
import { DecisionEditor } from '../components/DecisionEditor';
import { TermNotesCard } from '../components/TermNotesCard';
import { ErrorNote } from '../components/ErrorNote';
import { useRunColumns } from '../components/RunColumns';
import { defaultRunName, usePredictionsPage, type PredictionsPageState } from '../controllers/predictions';
import { useRole } from '../controllers/session';
import type { Run, RunEntry } from '../api/wire';
import { campusTermLabel, PLANNED_SEMESTERS, termLabel, YEARS } from '../../../core/domain/terms';
import { LIMITS } from '../../../core/domain/bounds';

/** A course added or dropped, saying when it was staff's decision rather than the model's. */
function changeWords(e: { course_code: string; course_name: string; offer: boolean; staff_decision: string | null }): string {
  const yours = e.staff_decision === null ? '' : ` (your decision; the model said ${e.offer ? 'offer' : 'skip'})`;
  return `${e.course_code} — ${e.course_name}${yours}`;
}

const savedAt = (run: Run): string => new Date(run.created_at).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' });

function ChangeList({ title, items, testId }: { title: string; items: string[]; testId: string }) {
  return (
    <div data-testid={testId}>
      <Text size="sm" fw={600}>
        {title} ({items.length})
      </Text>
      {items.length === 0 ? (
        <Text size="sm" c="dimmed">
          Nothing
        </Text>
      ) : (
        <ScrollArea.Autosize mah={160}>
          <List size="sm">
            {items.map((i) => (
              <List.Item key={i}>{i}</List.Item>
            ))}
          </List>
        </ScrollArea.Autosize>
      )}
    </div>
  );
}

/** The term, campus and name of the run to ask for. */
function TargetCard({ page }: { page: PredictionsPageState }) {
  return (
    <Card withBorder>
      <Stack gap="xs">
        <Text fw={600}>Target term</Text>
        <NumberInput label="Year" value={page.year} onChange={page.setYear} min={YEARS.min} max={YEARS.max} data-testid="target-year" />
        <SegmentedControl
          value={page.semester}
          onChange={(v) => page.setSemester(v)}
          data={[...PLANNED_SEMESTERS]}
          aria-label="Semester"
          data-testid="target-semester"
        />
        <SegmentedControl value={page.campus} onChange={page.setCampus} data={page.campuses} aria-label="Campus" data-testid="target-campus" />
        <TextInput
          label="Run name"
          placeholder={campusTermLabel(page.campus, { year: Number(page.year), semester: page.semester })}
          value={page.name}
          onChange={(e) => page.setName(e.currentTarget.value)}
        />
      </Stack>
    </Card>
  );
}

/** The students expected to start. */
/** The incoming cohorts a run counts, and their labels. */
const COHORTS = [
  ['new_freshman', 'New freshmen'],
  ['new_sophomores', 'New sophomores'],
  ['new_masters', 'New masters students'],
] as const;

/** The most students an incoming cohort may have (the server refuses more). */
const MAX_COHORT = LIMITS.maxEnrollment;

function CohortsCard({ page }: { page: PredictionsPageState }) {
  const { cohorts, setCohorts } = page;
  return (
    <Card withBorder>
      <Stack gap="xs">
        <Text fw={600}>Incoming students</Text>
        {COHORTS.map(([field, label]) => (
          <NumberInput
            key={field}
            label={label}
            min={0}
            max={MAX_COHORT}
            clampBehavior="strict"
            allowDecimal={false}
            value={cohorts[field]}
            onChange={(v) => setCohorts({ ...cohorts, [field]: Number(v) || 0 })}
          />
        ))}
      </Stack>
    </Card>
  );
}

/** How many courses of each of the department's categories, when staff plan by quotas. */
function QuotasCard({ page }: { page: PredictionsPageState }) {
  return (
    <Card withBorder>
      <Stack gap="xs">
        <Switch
          label="Use quotas instead of the model's yes/no"
          checked={page.useQuotas}
          onChange={(e) => page.setUseQuotas(e.currentTarget.checked)}
          data-testid="use-quotas"
        />
        <ScrollArea.Autosize mah={220}>
          <SimpleGrid cols={3}>
            {page.categories.map((c) => (
              <NumberInput
                key={c.key}
                label={c.label}
                min={0}
                size="xs"
                disabled={!page.useQuotas}
                value={page.slots[c.key] ?? c.count}
                onChange={(v) => page.setSlot(c.key, Number(v) || 0)}
                data-testid={`slot-${c.key}`}
              />
            ))}
          </SimpleGrid>
        </ScrollArea.Autosize>
        {page.categories.length === 0 && (
          <Text size="xs" c="dimmed">
            Upload the course catalog to plan by categories.
          </Text>
        )}
      </Stack>
    </Card>
  );
}

/** Train, Run, export the run shown. */
function Actions({ page }: { page: PredictionsPageState }) {
  // A viewer reads the runs and exports them; training and running are the schedulers'.
  const { canWrite } = useRole();
  return (
    <>
      {canWrite && (
        <>
          <Button variant="default" onClick={() => void page.train()} loading={page.training} data-testid="train">
            Train models
          </Button>
          <Button onClick={() => void page.run()} loading={page.running} disabled={typeof page.year !== 'number'} data-testid="run">
            Run
          </Button>
        </>
      )}
      {page.current && (
        <>
          <Button variant="subtle" onClick={() => void page.exportRun('xlsx')}>
            Export XLSX
          </Button>
          <Button variant="subtle" onClick={() => void page.exportRun('csv')}>
            Export CSV
          </Button>
        </>
      )}
    </>
  );
}

/** What training found, per campus. */
function TrainResult({ page }: { page: PredictionsPageState }) {
  if (!page.trainResult) return null;
  return (
    <Group data-testid="train-result">
      {Object.entries(page.trainResult.campuses).map(([c, r]) => (
        <Badge key={c} size="lg" variant="light" tt="none">
          <span title={r.samples > 0 ? modelDetails(r) : undefined}>
            {c} model: {r.samples > 0 ? `ranked past terms right ${outOf100(r.roc_auc)} times` : 'not enough history to learn from'}
          </span>
        </Badge>
      ))}
    </Group>
  );
}

/** The campus's saved runs, newest first; choosing one shows it. */
function RunHistory({ page }: { page: PredictionsPageState }) {
  return (
    <Card withBorder>
      <Text fw={600} mb="xs">
        Runs at {page.campus}
      </Text>
      <Table highlightOnHover fz="xs" data-testid="run-history">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>For term</Table.Th>
            <Table.Th>Run</Table.Th>
            <Table.Th>Saved</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {page.runs.map((r) => (
            <Table.Tr
              key={r.id}
              onClick={() => page.show(r)}
              onKeyDown={(e) => e.key === 'Enter' && page.show(r)}
              tabIndex={0}
              aria-selected={r.id === page.current?.id}
              style={{ cursor: 'pointer', fontWeight: r.id === page.current?.id ? 700 : 400 }}
            >
              <Table.Td>
                {r.target_semester} {r.target_year}
              </Table.Td>
              {/* The run's name only when it says more than its campus and term. */}
              <Table.Td c={r.run_name === defaultRunName(r) ? 'dimmed' : undefined}>{r.run_name === defaultRunName(r) ? 'unnamed' : r.run_name}</Table.Td>
              <Table.Td>{savedAt(r)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      {page.runs.length === 0 && (
        <Text size="sm" c="dimmed">
          No runs yet.
        </Text>
      )}
    </Card>
  );
}

/** Every reason behind the chosen course's decision, and staff's own decision on it. */
function WhyCard({ run, selected }: { run: Run; selected: RunEntry | null }) {
  const { canWrite } = useRole();
  return (
    <Card withBorder padding="sm" data-testid="run-why">
      {selected ? (
        <Stack gap={4}>
          <Text fw={600}>
            Why the model says {selected.offer ? 'offer' : 'skip'} {selected.course_code} — {selected.course_name}
          </Text>
          <Text size="sm">
            Score {selected.offer_score.toFixed(0)} of 100 · expected {selected.predicted_enrollment} students
            {selected.enrollment_low !== null && selected.enrollment_high !== null
              ? ` (8 times in 10 between ${selected.enrollment_low} and ${selected.enrollment_high})`
              : ''}{' '}
            · {selected.projected_sections} sections of {selected.section_size} seats · {selected.types.join(', ')}
          </Text>
          <List size="sm">
            {selected.reasons.map((r) => (
              <List.Item key={r}>{r}</List.Item>
            ))}
          </List>
          {canWrite && <DecisionEditor key={`${run.id}:${selected.course_code}:${selected.decided_at ?? ''}`} run={run} entry={selected} />}
        </Stack>
      ) : (
        <Text size="sm" c="dimmed">
          Select a course to read every reason behind its decision.
        </Text>
      )}
    </Card>
  );
}

/** "What changed since" another run of the campus. */
function CompareCard({ page, run }: { page: PredictionsPageState; run: Run }) {
  const { comparison } = page;
  const others = page.runs
    .filter((r) => r.id !== run.id)
    .map((r) => ({
      value: String(r.id),
      label: `${termLabel({ year: r.target_year, semester: r.target_semester })}${r.run_name === defaultRunName(r) ? '' : ` · ${r.run_name}`} · ${savedAt(r)}`,
    }));
  return (
    <Card withBorder padding="sm" data-testid="run-compare">
      <Group gap="xs" mb={comparison ? 'xs' : 0}>
        <Text fw={600}>What changed since</Text>
        <Select
          size="xs"
          placeholder="another run of this campus"
          clearable
          data={others}
          value={page.compareWith}
          onChange={page.setCompareWith}
          aria-label="Compare with run"
          data-testid="compare-with"
          w={320}
          disabled={page.runs.length < 2}
        />
      </Group>
      {comparison && (
        <SimpleGrid cols={3} data-testid="comparison">
          <ChangeList title="Added to the offer" items={comparison.added.map(changeWords)} testId="compare-added" />
          <ChangeList title="Dropped from the offer" items={comparison.dropped.map(changeWords)} testId="compare-dropped" />
          <ChangeList
            title="Expected enrollment moved"
            items={comparison.demand_moved.map((m) => `${m.course_code}: ${m.from} → ${m.to} students`)}
            testId="compare-demand"
          />
        </SimpleGrid>
      )}
    </Card>
  );
}

/** The run shown: its summary and caveats, its courses (filtered), the chosen course, the comparison. */
function RunView({ page, run }: { page: PredictionsPageState; run: Run }) {
  const columns = useRunColumns(run);
  const { filters, setFilters, choices } = page;
  return (
    <Stack gap="xs" data-testid="run-results">
      <Text size="sm">
        {run.run_name !== defaultRunName(run) && <b>{run.run_name} — </b>}
        {run.target_campus} {run.target_semester} {run.target_year}: {run.entries.filter((e) => e.planned_offer).length} of {run.entries.length} courses in the
        plan
        {page.decidedCount > 0 && ` (${page.decidedCount} decided by you, ${run.entries.filter((e) => e.offer).length} recommended by the model)`}
      </Text>
      {run.caveats.length > 0 && (
        <Alert color="yellow" title="What this run could not take into account" data-testid="run-caveats">
          <List size="sm">
            {run.caveats.map((c) => (
              <List.Item key={c}>{c}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      <DataGrid
        rows={page.entries}
        columns={columns}
        label="Recommendations"
        testId="grid-run"
        height={400}
        onRowClick={page.choose}
        selected={page.selected}
        toolbar={
          <Group gap="xs">
            <Select
              size="xs"
              placeholder="Prefix"
              clearable
              searchable
              data={choices.prefixes}
              value={filters.prefix}
              onChange={(prefix) => setFilters({ prefix })}
              aria-label="Filter by prefix"
              w={110}
            />
            <Select
              size="xs"
              placeholder="Type"
              clearable
              data={choices.types}
              value={filters.type}
              onChange={(type) => setFilters({ type })}
              aria-label="Filter by type"
              w={120}
            />
            <SegmentedControl
              size="xs"
              value={filters.decision}
              onChange={(decision) => setFilters({ decision: decision })}
              data={[
                { value: 'all', label: 'All' },
                { value: 'offer', label: 'Offer' },
                { value: 'skip', label: 'Skip' },
              ]}
              aria-label="Filter by decision"
            />
          </Group>
        }
      />
      <WhyCard run={run} selected={page.selected} />
      <CompareCard page={page} run={run} />
    </Stack>
  );
}

export function PredictionsPage() {
  const page = usePredictionsPage();
  // A viewer reads and exports runs: the run's settings, which only Run uses, are the schedulers'.
  const { canWrite } = useRole();
  return (
    <Stack>
      {/* Train and Run beside the title: in view at 1366×768 whatever the cards below hold. */}
      <Group justify="space-between" align="center">
        <Title order={2}>Predictions</Title>
        <Group gap="xs">
          <Actions page={page} />
        </Group>
      </Group>
      {page.training && <Progress value={page.trainPercent} animated aria-label="Training progress" data-testid="train-progress" />}
      <SimpleGrid cols={{ base: 1, md: 2, lg: canWrite ? 4 : 1 }}>
        {canWrite && <TargetCard page={page} />}
        {canWrite && <CohortsCard page={page} />}
        <TermNotesCard year={typeof page.year === 'number' ? page.year : null} semester={page.semester} />
        {canWrite && <QuotasCard page={page} />}
      </SimpleGrid>
      <TrainResult page={page} />
      <ErrorNote message={page.error} testId="predict-error" />
      <SimpleGrid cols={{ base: 1, lg: 4 }}>
        <RunHistory page={page} />
        <div style={{ gridColumn: 'span 3' }}>
          {page.current ? <RunView page={page} run={page.current} /> : <Text c="dimmed">Set the target term and press Run to rank every catalog course.</Text>}
        </div>
      </SimpleGrid>
    </Stack>
  );
}
