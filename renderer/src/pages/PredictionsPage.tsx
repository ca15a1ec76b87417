import { useEffect, useMemo, useState } from 'react';
import { Alert, Badge, Button, Card, Group, List, NumberInput, Progress, ScrollArea, SegmentedControl, Select, SimpleGrid, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import { compareRuns } from '../../../core/domain/run-comparison';
import { modelDetails, outOf100, SCORE_HINT } from '../lib/model-words';
import type { ColumnDef } from '@tanstack/react-table';
import { call } from '../api/client';
import { transport } from '../api/client';
import { usePredict, type RunEntry } from '../stores/predict';
import { useCampuses } from '../stores/campuses';
import { useProgress } from '../stores/progress';
import { DataGrid } from '../components/DataGrid';
import { DecisionEditor } from '../components/DecisionEditor';
import { TermNotesCard } from '../components/TermNotesCard';
import { codePrefixes } from '../../../core/domain/codes';
import { ErrorNote } from '../components/ErrorNote';
import { notifyError } from '../lib/notify';
import type { QuotaCategory } from '../../../core/domain/quotas';
import { campusTermLabel, termLabel } from '../../../core/domain/terms';


/** A run's name when staff gave none: its campus and term. */
function defaultRunName(r: { target_campus: string; target_semester: string; target_year: number }): string {
  return campusTermLabel(r.target_campus, { year: r.target_year, semester: r.target_semester });
}

/** A course added or dropped, saying when it was staff's decision rather than the model's. */
function changeWords(e: { course_code: string; course_name: string; offer: boolean; staff_decision: string | null }): string {
  const yours = e.staff_decision === null ? '' : ` (your decision; the model said ${e.offer ? 'offer' : 'skip'})`;
  return `${e.course_code} — ${e.course_name}${yours}`;
}

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

export function PredictionsPage() {
  const { runs, current, training, running, trainResult, error, loadRuns, train, run, select } = usePredict();
  const progress = useProgress((s) => s.byKey);
  const [year, setYear] = useState<number | string>('');
  const [semester, setSemester] = useState<'Fall' | 'Spring'>('Fall');
  const campuses = useCampuses((s) => s.campuses);
  const [chosenCampus, setCampus] = useState<string | null>(null);
  const campus = chosenCampus ?? campuses[0] ?? '';
  const [name, setName] = useState('');
  const [cohorts, setCohorts] = useState({ new_freshman: 0, new_sophomores: 0, new_masters: 0 });
  const [useQuotas, setUseQuotas] = useState(false);
  // The department's categories at the campus (its profile's, else its catalog's), each with its usual count.
  const [categories, setCategories] = useState<QuotaCategory[]>([]);
  const [slots, setSlots] = useState<Record<string, number>>({});
  const [prefix, setPrefix] = useState<string | null>(null);
  const [type, setType] = useState<string | null>(null);
  const [decision, setDecision] = useState('all');
  const [chosen, setChosen] = useState<RunEntry | null>(null);
  const [compareWith, setCompareWith] = useState<string | null>(null);
  // The chosen course as the run now stands (a decision replaces its entry).
  const selected = (chosen && current?.entries.find((e) => e.course_code === chosen.course_code)) ?? null;
  const decidedCount = current?.entries.filter((e) => e.staff_decision !== null).length ?? 0;
  const other = runs.find((r) => String(r.id) === compareWith && r.id !== current?.id) ?? null;
  const comparison = useMemo(() => (current && other ? compareRuns(other.entries, current.entries) : null), [current, other]);

  useEffect(() => {
    call('predict-next-term', {})
      .then((term) => {
        setYear(term.year);
        setSemester(term.semester);
      })
      .catch(() => setYear(new Date().getFullYear()));
  }, []);
  useEffect(() => {
    if (campus !== '') void loadRuns(campus);
  }, [campus, loadRuns]);
  useEffect(() => {
    if (campus === '') return;
    let current = true;
    call('predict-quota-categories', { campus })
      .then(({ categories: found }) => {
        if (!current) return;
        setCategories(found);
        setSlots(Object.fromEntries(found.map((c) => [c.key, c.count])));
      })
      .catch(() => setCategories([]));
    return () => {
      current = false;
    };
  }, [campus, runs.length]);

  const entries = useMemo(
    () => (current?.entries ?? []).filter((e) => (!prefix || codePrefixes(e.course_code).includes(prefix)) && (!type || e.types.includes(type)) && (decision === 'all' || (decision === 'offer') === e.planned_offer)),
    [current, prefix, type, decision],
  );
  // The prefixes and course types to filter by are the run's own: whatever the department teaches.
  const filters = useMemo(() => {
    const list = current?.entries ?? [];
    const sorted = (values: Iterable<string>): string[] => [...new Set(values)].sort((a, b) => a.localeCompare(b));
    return { prefixes: sorted(list.flatMap((e) => codePrefixes(e.course_code))), types: sorted(list.flatMap((e) => e.types)) };
  }, [current]);
  const columns = useMemo<ColumnDef<RunEntry, unknown>[]>(
    () => [
      { id: 'rank', header: '#', size: 45, accessorFn: (e) => (current?.entries.indexOf(e) ?? 0) + 1 },
      { accessorKey: 'course_code', header: 'Code', size: 90 },
      { accessorKey: 'course_name', header: 'Name', size: 180, cell: (c) => <span title={c.row.original.course_name}>{c.row.original.course_name}</span> },
      {
        id: 'offer',
        header: 'Decision',
        size: 110,
        accessorFn: (e) => (e.planned_offer ? 'Offer' : 'Skip'),
        cell: (c) => {
          const e = c.row.original;
          const byStaff = e.staff_decision !== null;
          const title = byStaff ? `Your decision${e.staff_reason ? `: ${e.staff_reason}` : ''}. The model said ${e.offer ? 'offer' : 'skip'}.` : "The model's decision";
          return (
            <Text span size="sm" fw={600} c={e.planned_offer ? undefined : 'dimmed'} className={e.planned_offer ? 'tw-offer' : undefined} title={title} data-testid="decision">
              {e.planned_offer ? '✓ Offer' : '– Skip'}
              {byStaff && (
                <Badge size="xs" variant="outline" ml={4} data-testid="decided-by-staff">
                  yours
                </Badge>
              )}
            </Text>
          );
        },
      },
      {
        accessorKey: 'offer_score',
        header: () => <span title={SCORE_HINT}>Score (0–100) ⓘ</span>,
        size: 125,
        cell: (c) => (
          <Group gap={6} wrap="nowrap">
            <div className="tw-scorebar" style={{ width: `${Math.max(2, c.row.original.offer_score * 0.7)}px` }} />
            <Text size="xs" title={SCORE_HINT}>
              {c.row.original.offer_score.toFixed(0)}
            </Text>
          </Group>
        ),
      },
      {
        accessorKey: 'predicted_enrollment',
        header: 'Enrollment',
        size: 120,
        cell: (c) => {
          const e = c.row.original;
          if (e.enrollment_low === null || e.enrollment_high === null) return e.predicted_enrollment;
          return (
            <span title={`Expected ${e.predicted_enrollment} students; 8 times in 10 between ${e.enrollment_low} and ${e.enrollment_high}`} data-testid="enrollment-range">
              {e.predicted_enrollment}{' '}
              <Text span size="xs" c="dimmed">
                ({e.enrollment_low}–{e.enrollment_high})
              </Text>
            </span>
          );
        },
      },
      {
        accessorKey: 'planned_sections',
        header: 'Sections',
        size: 80,
        cell: (c) => {
          const e = c.row.original;
          const differs = e.planned_sections !== e.projected_sections;
          return <span title={`Sections of ${e.section_size} seats${differs ? `; the model proposed ${e.projected_sections}` : ''}`}>{e.planned_sections}</span>;
        },
      },
    ],
    [current],
  );

  const trainProgress = Object.values(progress).filter((p) => p.task === 'train');
  const percent = trainProgress.length > 0 ? Math.round(trainProgress.filter((p) => p.campus).reduce((sum, p) => sum + p.percent, 0) / Math.max(1, campuses.length)) : 0;

  const submit = (): void => {
    if (typeof year !== 'number') return;
    void run({ run_name: name.trim() || defaultRunName({ target_campus: campus, target_semester: semester, target_year: year }), target_year: year, target_semester: semester, target_campus: campus, ...cohorts, use_quotas: useQuotas, slots });
  };
  const exportRun = async (format: 'xlsx' | 'csv'): Promise<void> => {
    if (!current) return;
    try {
      await transport.saveFile(await call('predict-run-export', { run_id: current.id, format }));
    } catch (e) {
      notifyError(e, 'Export failed');
    }
  };

  return (
    <Stack>
      <Title order={2}>Predictions</Title>
      <SimpleGrid cols={{ base: 1, md: 2, xl: 4 }}>
        <Card withBorder>
          <Stack gap="xs">
            <Text fw={600}>Target term</Text>
            <NumberInput label="Year" value={year} onChange={setYear} min={1900} max={2200} data-testid="target-year" />
            <SegmentedControl value={semester} onChange={(v) => setSemester(v)} data={['Fall', 'Spring']} aria-label="Semester" data-testid="target-semester" />
            <SegmentedControl value={campus} onChange={(v) => setCampus(v)} data={campuses} aria-label="Campus" data-testid="target-campus" />
            <TextInput label="Run name" placeholder={campusTermLabel(campus, { year: Number(year), semester })} value={name} onChange={(e) => setName(e.currentTarget.value)} />
          </Stack>
        </Card>
        <Card withBorder>
          <Stack gap="xs">
            <Text fw={600}>Incoming students</Text>
            <NumberInput label="New freshmen" min={0} value={cohorts.new_freshman} onChange={(v) => setCohorts({ ...cohorts, new_freshman: Number(v) || 0 })} />
            <NumberInput label="New sophomores" min={0} value={cohorts.new_sophomores} onChange={(v) => setCohorts({ ...cohorts, new_sophomores: Number(v) || 0 })} />
            <NumberInput label="New masters students" min={0} value={cohorts.new_masters} onChange={(v) => setCohorts({ ...cohorts, new_masters: Number(v) || 0 })} />
          </Stack>
        </Card>
        <TermNotesCard year={typeof year === 'number' ? year : null} semester={semester} />
        <Card withBorder>
          <Stack gap="xs">
            <Switch label="Use quotas instead of the model's yes/no" checked={useQuotas} onChange={(e) => setUseQuotas(e.currentTarget.checked)} data-testid="use-quotas" />
            <ScrollArea.Autosize mah={220}>
              <SimpleGrid cols={3}>
                {categories.map((c) => (
                  <NumberInput key={c.key} label={c.label} min={0} size="xs" disabled={!useQuotas} value={slots[c.key] ?? c.count} onChange={(v) => setSlots({ ...slots, [c.key]: Number(v) || 0 })} data-testid={`slot-${c.key}`} />
                ))}
              </SimpleGrid>
            </ScrollArea.Autosize>
            {categories.length === 0 && (
              <Text size="xs" c="dimmed">
                Upload the course catalog to plan by categories.
              </Text>
            )}
          </Stack>
        </Card>
      </SimpleGrid>
      <Group>
        <Button variant="default" onClick={() => void train()} loading={training} data-testid="train">
          Train models
        </Button>
        <Button onClick={submit} loading={running} disabled={typeof year !== 'number'} data-testid="run">
          Run
        </Button>
        {current && (
          <>
            <Button variant="subtle" onClick={() => void exportRun('xlsx')}>
              Export XLSX
            </Button>
            <Button variant="subtle" onClick={() => void exportRun('csv')}>
              Export CSV
            </Button>
          </>
        )}
      </Group>
      {training && <Progress value={percent} animated aria-label="Training progress" data-testid="train-progress" />}
      {trainResult && (
        <Group data-testid="train-result">
          {Object.entries(trainResult.campuses).map(([c, r]) => (
            <Badge key={c} size="lg" variant="light">
              <span title={r.samples > 0 ? modelDetails(r) : undefined}>
                {c} model: {r.samples > 0 ? `ranked past terms right ${outOf100(r.roc_auc)} times` : 'not enough history to learn from'}
              </span>
            </Badge>
          ))}
        </Group>
      )}
      <ErrorNote message={error} testId="predict-error" />
      <SimpleGrid cols={{ base: 1, lg: 4 }}>
        <Card withBorder>
          <Text fw={600} mb="xs">
            Runs at {campus}
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
              {runs.map((r) => (
                <Table.Tr key={r.id} onClick={() => select(r)} onKeyDown={(e) => e.key === 'Enter' && select(r)} tabIndex={0} aria-selected={r.id === current?.id} style={{ cursor: 'pointer', fontWeight: r.id === current?.id ? 700 : 400 }}>
                  <Table.Td>
                    {r.target_semester} {r.target_year}
                  </Table.Td>
                  {/* The run's name only when it says more than its campus and term. */}
                  <Table.Td>{r.run_name === defaultRunName(r) ? '' : r.run_name}</Table.Td>
                  <Table.Td>{new Date(r.created_at).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' })}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
          {runs.length === 0 && <Text size="sm" c="dimmed">No runs yet.</Text>}
        </Card>
        <div style={{ gridColumn: 'span 3' }}>
          {current ? (
            <Stack gap="xs" data-testid="run-results">
              <Text size="sm">
                {current.run_name !== defaultRunName(current) && <b>{current.run_name} — </b>}
                {current.target_campus} {current.target_semester} {current.target_year}: {current.entries.filter((e) => e.planned_offer).length} of {current.entries.length} courses in the plan
                {decidedCount > 0 && ` (${decidedCount} decided by you, ${current.entries.filter((e) => e.offer).length} recommended by the model)`}
              </Text>
              {current.caveats.length > 0 && (
                <Alert color="yellow" title="What this run could not take into account" data-testid="run-caveats">
                  <List size="sm">
                    {current.caveats.map((c) => (
                      <List.Item key={c}>{c}</List.Item>
                    ))}
                  </List>
                </Alert>
              )}
              <DataGrid
                rows={entries}
                columns={columns}
                label="Recommendations"
                testId="grid-run"
                height={400}
                onRowClick={setChosen}
                selected={selected}
                toolbar={
                  <Group gap="xs">
                    <Select size="xs" placeholder="Prefix" clearable searchable data={filters.prefixes} value={prefix} onChange={setPrefix} aria-label="Filter by prefix" w={110} />
                    <Select size="xs" placeholder="Type" clearable data={filters.types} value={type} onChange={setType} aria-label="Filter by type" w={120} />
                    <SegmentedControl size="xs" value={decision} onChange={setDecision} data={[{ value: 'all', label: 'All' }, { value: 'offer', label: 'Offer' }, { value: 'skip', label: 'Skip' }]} aria-label="Filter by decision" />
                  </Group>
                }
              />
              <Card withBorder padding="sm" data-testid="run-why">
                {selected ? (
                  <Stack gap={4}>
                    <Text fw={600}>
                      Why the model says {selected.offer ? 'offer' : 'skip'} {selected.course_code} — {selected.course_name}
                    </Text>
                    <Text size="sm">
                      Score {selected.offer_score.toFixed(0)} of 100 · expected {selected.predicted_enrollment} students
                      {selected.enrollment_low !== null && selected.enrollment_high !== null ? ` (8 times in 10 between ${selected.enrollment_low} and ${selected.enrollment_high})` : ''} · {selected.projected_sections} sections of {selected.section_size} seats · {selected.types.join(', ')}
                    </Text>
                    <List size="sm">
                      {selected.reasons.map((r) => (
                        <List.Item key={r}>{r}</List.Item>
                      ))}
                    </List>
                    <DecisionEditor key={`${current.id}:${selected.course_code}:${selected.decided_at ?? ''}`} run={current} entry={selected} />
                  </Stack>
                ) : (
                  <Text size="sm" c="dimmed">
                    Select a course to read every reason behind its decision.
                  </Text>
                )}
              </Card>
              <Card withBorder padding="sm" data-testid="run-compare">
                <Group gap="xs" mb={comparison ? 'xs' : 0}>
                  <Text fw={600}>What changed since</Text>
                  <Select size="xs" placeholder="another run of this campus" clearable data={runs.filter((r) => r.id !== current.id).map((r) => ({ value: String(r.id), label: `${termLabel({ year: r.target_year, semester: r.target_semester })}${r.run_name === defaultRunName(r) ? '' : ` · ${r.run_name}`} · ${new Date(r.created_at).toLocaleString(undefined, { dateStyle: 'short', timeStyle: 'short' })}` }))} value={compareWith} onChange={setCompareWith} aria-label="Compare with run" data-testid="compare-with" w={320} disabled={runs.length < 2} />
                </Group>
                {comparison && (
                  <SimpleGrid cols={3} data-testid="comparison">
                    <ChangeList title="Added to the offer" items={comparison.added.map(changeWords)} testId="compare-added" />
                    <ChangeList title="Dropped from the offer" items={comparison.dropped.map(changeWords)} testId="compare-dropped" />
                    <ChangeList title="Expected enrollment moved" items={comparison.demand_moved.map((m) => `${m.course_code}: ${m.from} → ${m.to} students`)} testId="compare-demand" />
                  </SimpleGrid>
                )}
              </Card>
            </Stack>
          ) : (
            <Text c="dimmed">Set the target term and press Run to rank every catalog course.</Text>
          )}
        </div>
      </SimpleGrid>
    </Stack>
  );
}
