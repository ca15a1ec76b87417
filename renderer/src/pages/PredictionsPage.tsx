import { useEffect, useMemo, useState } from 'react';
import { Badge, Button, Card, Group, NumberInput, Progress, SegmentedControl, Select, SimpleGrid, Stack, Switch, Table, Text, TextInput, Title } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { call } from '../api/client';
import { transport } from '../api/client';
import { usePredict, type RunEntry } from '../stores/predict';
import { useCampuses } from '../stores/campuses';
import { useProgress } from '../stores/progress';
import { DataGrid } from '../components/DataGrid';
import { ErrorNote } from '../components/ErrorNote';
import { notifyError } from '../lib/notify';
import { DEFAULT_SLOTS, QUOTA_SLOT_LABELS, QUOTA_SLOTS, type QuotaSlot } from '../../../core/domain/quotas';


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
  const [slots, setSlots] = useState<Record<QuotaSlot, number>>({ ...DEFAULT_SLOTS });
  const [prefix, setPrefix] = useState<string | null>(null);
  const [type, setType] = useState<string | null>(null);
  const [decision, setDecision] = useState('all');

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

  const entries = useMemo(
    () => (current?.entries ?? []).filter((e) => (!prefix || e.course_code.split('/').some((c) => c.startsWith(prefix))) && (!type || e.types.includes(type)) && (decision === 'all' || (decision === 'offer') === e.offer)),
    [current, prefix, type, decision],
  );
  const columns = useMemo<ColumnDef<RunEntry, unknown>[]>(
    () => [
      { id: 'rank', header: '#', size: 45, accessorFn: (e) => (current?.entries.indexOf(e) ?? 0) + 1 },
      { accessorKey: 'course_code', header: 'Code', size: 120 },
      { accessorKey: 'course_name', header: 'Name', size: 230 },
      { id: 'types', header: 'Types', size: 120, accessorFn: (e) => e.types.join(', ') },
      { id: 'offer', header: 'Offer', size: 70, accessorFn: (e) => (e.offer ? 'offer' : 'skip'), cell: (c) => <Badge color={c.row.original.offer ? 'green' : 'gray'}>{c.getValue() as string}</Badge> },
      {
        accessorKey: 'offer_score',
        header: 'Score',
        size: 130,
        cell: (c) => (
          <Group gap={6} wrap="nowrap">
            <div className="tw-scorebar" style={{ width: `${Math.max(2, c.row.original.offer_score * 0.7)}px` }} />
            <Text size="xs">{c.row.original.offer_score.toFixed(1)}</Text>
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
        accessorKey: 'projected_sections',
        header: 'Sections',
        size: 80,
        cell: (c) => <span title={`Sections of ${c.row.original.section_size} seats`}>{c.row.original.projected_sections}</span>,
      },
      { id: 'reasons', header: 'Reasons', size: 480, accessorFn: (e) => e.reasons.join(' · '), cell: (c) => <span title={c.getValue() as string}>{c.getValue() as string}</span> },
    ],
    [current],
  );

  const trainProgress = Object.values(progress).filter((p) => p.task === 'train');
  const percent = trainProgress.length > 0 ? Math.round(trainProgress.filter((p) => p.campus).reduce((sum, p) => sum + p.percent, 0) / Math.max(1, campuses.length)) : 0;

  const submit = (): void => {
    if (typeof year !== 'number') return;
    void run({ run_name: name.trim() || `${campus} ${semester} ${year}`, target_year: year, target_semester: semester, target_campus: campus, ...cohorts, use_quotas: useQuotas, slots });
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
      <SimpleGrid cols={{ base: 1, lg: 3 }}>
        <Card withBorder>
          <Stack gap="xs">
            <Text fw={600}>Target term</Text>
            <NumberInput label="Year" value={year} onChange={setYear} min={1900} max={2200} data-testid="target-year" />
            <SegmentedControl value={semester} onChange={(v) => setSemester(v)} data={['Fall', 'Spring']} aria-label="Semester" data-testid="target-semester" />
            <SegmentedControl value={campus} onChange={(v) => setCampus(v)} data={campuses} aria-label="Campus" data-testid="target-campus" />
            <TextInput label="Run name" placeholder={`${campus} ${semester} ${year}`} value={name} onChange={(e) => setName(e.currentTarget.value)} />
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
        <Card withBorder>
          <Stack gap="xs">
            <Switch label="Use quotas instead of the model's yes/no" checked={useQuotas} onChange={(e) => setUseQuotas(e.currentTarget.checked)} data-testid="use-quotas" />
            <SimpleGrid cols={3}>
              {QUOTA_SLOTS.map((key) => (
                <NumberInput key={key} label={QUOTA_SLOT_LABELS[key]} min={0} size="xs" disabled={!useQuotas} value={slots[key]} onChange={(v) => setSlots({ ...slots, [key]: Number(v) || 0 })} data-testid={`slot-${key}`} />
              ))}
            </SimpleGrid>
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
              {c}: {r.samples > 0 ? `ROC-AUC ${r.roc_auc?.toFixed(3) ?? '—'}, F1 ${r.f1?.toFixed(3) ?? '—'}, ${r.samples.toLocaleString()} samples` : 'not enough history'}
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
            <Table.Tbody>
              {runs.map((r) => (
                <Table.Tr key={r.id} onClick={() => select(r)} style={{ cursor: 'pointer', fontWeight: r.id === current?.id ? 700 : 400 }}>
                  <Table.Td>{r.run_name}</Table.Td>
                  <Table.Td>
                    {r.target_semester} {r.target_year}
                  </Table.Td>
                  <Table.Td>{new Date(r.created_at).toLocaleDateString()}</Table.Td>
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
                <b>{current.run_name}</b> — {current.target_campus} {current.target_semester} {current.target_year}: {current.entries.filter((e) => e.offer).length} of {current.entries.length} courses recommended
              </Text>
              <DataGrid
                rows={entries}
                columns={columns}
                label="Recommendations"
                testId="grid-run"
                height={460}
                toolbar={
                  <Group gap="xs">
                    <Select size="xs" placeholder="Prefix" clearable data={['CSC', 'BIF', 'MTH', 'STA']} value={prefix} onChange={setPrefix} aria-label="Filter by prefix" w={100} />
                    <Select size="xs" placeholder="Type" clearable data={['core', 'elective', 'masters', 'minor']} value={type} onChange={setType} aria-label="Filter by type" w={110} />
                    <SegmentedControl size="xs" value={decision} onChange={setDecision} data={[{ value: 'all', label: 'All' }, { value: 'offer', label: 'Offer' }, { value: 'skip', label: 'Skip' }]} aria-label="Filter by decision" />
                  </Group>
                }
              />
            </Stack>
          ) : (
            <Text c="dimmed">Set the target term and press Run to rank every catalog course.</Text>
          )}
        </div>
      </SimpleGrid>
    </Stack>
  );
}
