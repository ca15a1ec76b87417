import { modelDetails, OFFER_LIST_HINT, outOf100, RANKS_RIGHT_HINT } from '../lib/model-words';
import { useMemo, useState } from 'react';
import { Badge, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { call } from '../api/client';
import { useDashboard } from '../stores/dashboard';
import { ErrorNote } from '../components/ErrorNote';
import { notifyDone, notifyError } from '../lib/notify';
import { useCampuses } from '../stores/campuses';
import { campusTermLabel, shortTermLabel } from '../../../core/domain/terms';

const CAMPUS_COLOURS = ['#228be6', '#e8590c', '#2f9e44', '#ae3ec9'];

function Kpi({ label, value, testId, hint }: { label: string; value: string | number; testId: string; hint?: string }) {
  return (
    <Card withBorder padding="md" title={hint}>
      <Text size="xs" c="dimmed" tt="uppercase">
        {label}
      </Text>
      <Text size="xl" fw={700} data-testid={testId}>
        {value}
      </Text>
    </Card>
  );
}


export function DashboardPage() {
  const { metrics, error } = useDashboard();
  const campuses = useCampuses((s) => s.campuses);
  const [loadingSample, setLoadingSample] = useState(false);

  const enrollment = useMemo(() => {
    const byTerm = new Map<string, { term: string } & Record<string, number | string>>();
    for (const row of metrics?.enrollment_by_term ?? []) {
      if (row.semester === 'Summer') continue;
      const key = shortTermLabel(row);
      const item = byTerm.get(key) ?? { term: key };
      item[row.campus] = row.total_enrolled;
      byTerm.set(key, item);
    }
    return [...byTerm.values()];
  }, [metrics]);

  const loadSample = async (): Promise<void> => {
    setLoadingSample(true);
    try {
      const loaded = await call('sample-load', {});
      // The counts the import reports, not what the sample is believed to hold.
      notifyDone(`${loaded.courses.processed} courses, ${loaded.offerings.processed.toLocaleString()} offering records, ${loaded.doctors.processed} doctors and ${loaded.rooms.processed} rooms were imported.`, 'Sample data loaded');
    } catch (e) {
      notifyError(e, 'Could not load the sample data');
    } finally {
      setLoadingSample(false);
    }
  };

  if (!metrics) return <ErrorNote message={error} />;
  if (metrics.total_courses === 0 && metrics.total_offerings === 0) {
    return (
      <Card withBorder padding="xl" maw={640} data-testid="empty-state">
        <Title order={2}>Welcome to Termwise</Title>
        <Text my="md">
          There is no data yet. Import your course catalog, offering history and faculty on the Data screen, or try Termwise with the sample data of a CS/Bioinformatics department.
        </Text>
        <Group>
          <Button onClick={() => void loadSample()} loading={loadingSample} data-testid="load-sample">
            Load sample data
          </Button>
          <Button component="a" href="#/data" variant="default">
            Go to import
          </Button>
        </Group>
      </Card>
    );
  }
  const byPrefix = Object.entries(metrics.recommended_by_prefix).map(([prefix, count]) => ({ prefix, count }));
  const byType = Object.entries(metrics.recommended_by_type).map(([type, count]) => ({ type, count }));
  return (
    <Stack>
      <Title order={2}>Dashboard</Title>
      <ErrorNote message={error} />
      <SimpleGrid cols={{ base: 2, md: 3 }}>
        <Kpi label="Courses in catalog" value={metrics.total_courses} testId="kpi-courses" />
        <Kpi label="Offering records" value={metrics.total_offerings.toLocaleString()} testId="kpi-offerings" />
        <Kpi label="Average fail ratio" value={`${metrics.average_fail_ratio}%`} testId="kpi-fail-ratio" />
        <Kpi label={campuses.length > 1 ? `Models ranked past terms right, ${campuses.length} campuses` : 'Model ranked past terms right'} hint={campuses.length > 1 ? `Mean of the campus models. ${RANKS_RIGHT_HINT}` : RANKS_RIGHT_HINT} value={metrics.average_model_confidence ? `${metrics.average_model_confidence}%` : '—'} testId="kpi-confidence" />
        <Kpi label="Latest run" value={metrics.latest_run ? campusTermLabel(metrics.latest_run.target_campus, { year: metrics.latest_run.target_year, semester: metrics.latest_run.target_semester }) : 'none yet'} testId="kpi-latest-run" />
        <Kpi label="Courses scored" value={metrics.total_predictions} testId="kpi-predictions" />
        <Kpi label="Recommended to offer" value={metrics.total_recommended_offerings} testId="kpi-recommended" />
        <Kpi label="Timetable entries" value={metrics.total_schedule_entries} testId="kpi-entries" />
        <Kpi label="Curriculum conflicts this term" value={metrics.curriculum_conflicts} testId="kpi-curriculum-conflicts" />
      </SimpleGrid>
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Card withBorder>
          <Text fw={600} mb="xs">
            Enrollment per term and campus
          </Text>
          <ResponsiveContainer width="100%" height={260}>
            <LineChart data={enrollment}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="term" fontSize={11} />
              <YAxis fontSize={11} />
              <Tooltip />
              <Legend />
              {campuses.map((campus, i) => (
                <Line key={campus} type="monotone" dataKey={campus} stroke={CAMPUS_COLOURS[i % CAMPUS_COLOURS.length]} dot={false} />
              ))}
            </LineChart>
          </ResponsiveContainer>
        </Card>
        <Card withBorder>
          <Text fw={600} mb="xs">
            Fail ratio per term (%)
          </Text>
          <ResponsiveContainer width="100%" height={260}>
            <LineChart data={metrics.fail_ratio_by_term.filter((t) => t.semester !== 'Summer').map((t) => ({ term: shortTermLabel(t), fail: t.fail_ratio }))}>
              <CartesianGrid strokeDasharray="3 3" />
              <XAxis dataKey="term" fontSize={11} />
              <YAxis fontSize={11} />
              <Tooltip />
              <Line type="monotone" dataKey="fail" name="Fail ratio %" stroke="#c92a2a" dot={false} />
            </LineChart>
          </ResponsiveContainer>
        </Card>
        <Card withBorder>
          <Text fw={600} mb="xs">
            Latest run: recommended courses by prefix and type
          </Text>
          {byPrefix.length === 0 ? (
            <Text c="dimmed">Run a prediction to see its recommendations here.</Text>
          ) : (
            <SimpleGrid cols={2}>
              <ResponsiveContainer width="100%" height={220}>
                <BarChart data={byPrefix}>
                  <XAxis dataKey="prefix" fontSize={11} />
                  <YAxis allowDecimals={false} fontSize={11} />
                  <Tooltip />
                  <Bar dataKey="count" name="Courses" fill="#228be6" />
                </BarChart>
              </ResponsiveContainer>
              <ResponsiveContainer width="100%" height={220}>
                <BarChart data={byType}>
                  <XAxis dataKey="type" fontSize={11} />
                  <YAxis allowDecimals={false} fontSize={11} />
                  <Tooltip />
                  <Bar dataKey="count" name="Courses" fill="#2f9e44" />
                </BarChart>
              </ResponsiveContainer>
            </SimpleGrid>
          )}
        </Card>
        <Card withBorder>
          <Text fw={600} mb="xs">
            Model quality per campus (held-out terms)
          </Text>
          {metrics.models.length === 0 ? (
            <Text c="dimmed">No model trained yet: train on the Predictions screen.</Text>
          ) : (
            <Table data-testid="model-quality">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Campus</Table.Th>
                  <Table.Th title={RANKS_RIGHT_HINT}>Ranked right</Table.Th>
                  <Table.Th title={OFFER_LIST_HINT}>Offer list matched</Table.Th>
                  <Table.Th>Learned from</Table.Th>
                  <Table.Th>Trained</Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {metrics.models.map((m) => (
                  <Table.Tr key={m.campus}>
                    <Table.Td>{m.campus}</Table.Td>
                    <Table.Td>
                      <Badge variant="light" title={modelDetails(m)}>
                        {outOf100(m.roc_auc)}
                      </Badge>
                    </Table.Td>
                    <Table.Td title={modelDetails(m)}>{outOf100(m.f1)}</Table.Td>
                    <Table.Td>{m.samples.toLocaleString()} course-terms</Table.Td>
                    <Table.Td>{new Date(m.trained_at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Card>
      </SimpleGrid>
    </Stack>
  );
}
