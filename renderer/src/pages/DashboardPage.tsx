import { modelDetails, OFFER_LIST_HINT, outOf100, RANKS_RIGHT_HINT } from '../lib/model-words';
import { Badge, Button, Card, Group, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { ErrorNote } from '../components/ErrorNote';
import { useDashboardPage, type DashboardPageState, type TermPoint } from '../controllers/dashboard';
import { useRole } from '../controllers/session';
import type { Metrics } from '../api/wire';
import { campusTermLabel } from '../../../core/domain/terms';

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

/**
 * Nothing imported yet: where to start, as far as the reader's role goes. The registrar may load the
 * sample data; a scheduler imports; a viewer waits for the department's schedulers.
 */
function EmptyState({ loading, onLoadSample, canWrite, isRegistrar }: { loading: boolean; onLoadSample: () => void; canWrite: boolean; isRegistrar: boolean }) {
  return (
    <Card withBorder padding="xl" maw={640} data-testid="empty-state">
      <Title order={2}>Welcome to Termwise</Title>
      <Text my="md">
        {!canWrite
          ? "There is no data yet: the department's schedulers import its catalog, offering history and faculty."
          : isRegistrar
            ? 'There is no data yet. Import your course catalog, offering history and faculty on the Data screen, or try Termwise with the sample data of a CS/Bioinformatics department.'
            : 'There is no data yet. Import your course catalog, offering history and faculty on the Data screen.'}
      </Text>
      {canWrite && (
        <Group>
          {isRegistrar && (
            <Button onClick={onLoadSample} loading={loading} data-testid="load-sample">
              Load sample data
            </Button>
          )}
          <Button component="a" href="#/data" variant={isRegistrar ? 'default' : 'filled'}>
            Go to import
          </Button>
        </Group>
      )}
    </Card>
  );
}

/** The headline numbers. */
function KpiGrid({ metrics, campuses }: { metrics: Metrics; campuses: string[] }) {
  return (
    <SimpleGrid cols={{ base: 2, md: 3 }}>
      <Kpi label="Courses in catalog" value={metrics.total_courses} testId="kpi-courses" />
      <Kpi label="Offering records" value={metrics.total_offerings.toLocaleString()} testId="kpi-offerings" />
      <Kpi label="Average fail ratio" value={`${metrics.average_fail_ratio}%`} testId="kpi-fail-ratio" />
      <Kpi
        label={campuses.length > 1 ? `Models ranked past terms right, ${campuses.length} campuses` : 'Model ranked past terms right'}
        hint={campuses.length > 1 ? `Mean of the campus models. ${RANKS_RIGHT_HINT}` : RANKS_RIGHT_HINT}
        value={metrics.average_model_confidence ? `${metrics.average_model_confidence}%` : '—'}
        testId="kpi-confidence"
      />
      <Kpi
        label="Latest run"
        value={
          metrics.latest_run
            ? campusTermLabel(metrics.latest_run.target_campus, { year: metrics.latest_run.target_year, semester: metrics.latest_run.target_semester })
            : 'none yet'
        }
        testId="kpi-latest-run"
      />
      <Kpi label="Courses scored" value={metrics.total_predictions} testId="kpi-predictions" />
      <Kpi label="Recommended to offer" value={metrics.total_recommended_offerings} testId="kpi-recommended" />
      <Kpi label="Timetable entries" value={metrics.total_schedule_entries} testId="kpi-entries" />
      <Kpi label="Curriculum conflicts this term" value={metrics.curriculum_conflicts} testId="kpi-curriculum-conflicts" />
    </SimpleGrid>
  );
}

/** How many of the latest run's recommended courses fall in each prefix (or type). */
function CountBars<K extends string>({ data, by, colour }: { data: ({ count: number } & Record<K, string>)[]; by: K; colour: string }) {
  return (
    <ResponsiveContainer width="100%" height={220}>
      <BarChart data={data}>
        <XAxis dataKey={by} fontSize={11} />
        <YAxis allowDecimals={false} fontSize={11} />
        <Tooltip />
        <Bar dataKey="count" name="Courses" fill={colour} />
      </BarChart>
    </ResponsiveContainer>
  );
}

/** Values over the terms, a line per series. */
function TermLines({ data, lines, legend = false }: { data: TermPoint[]; lines: { key: string; name?: string; colour: string }[]; legend?: boolean }) {
  return (
    <ResponsiveContainer width="100%" height={260}>
      <LineChart data={data}>
        <CartesianGrid strokeDasharray="3 3" />
        <XAxis dataKey="term" fontSize={11} />
        <YAxis fontSize={11} />
        <Tooltip />
        {legend && <Legend />}
        {lines.map((l) => (
          <Line key={l.key} type="monotone" dataKey={l.key} name={l.name ?? l.key} stroke={l.colour} dot={false} />
        ))}
      </LineChart>
    </ResponsiveContainer>
  );
}

/** Enrollment and fail ratio over the terms, and the latest run's recommendations. */
function Charts({ page }: { page: DashboardPageState }) {
  return (
    <>
      <Card withBorder>
        <Text fw={600} mb="xs">
          Enrollment per term and campus
        </Text>
        <TermLines
          data={page.enrollment}
          lines={page.campuses.map((campus, i) => ({ key: campus, colour: CAMPUS_COLOURS[i % CAMPUS_COLOURS.length] ?? '#228be6' }))}
          legend
        />
      </Card>
      <Card withBorder>
        <Text fw={600} mb="xs">
          Fail ratio per term (%)
        </Text>
        <TermLines data={page.failRatio} lines={[{ key: 'fail', name: 'Fail ratio %', colour: '#c92a2a' }]} />
      </Card>
      <Card withBorder>
        <Text fw={600} mb="xs">
          Latest run: recommended courses by prefix and type
        </Text>
        {page.byPrefix.length === 0 ? (
          <Text c="dimmed">Run a prediction to see its recommendations here.</Text>
        ) : (
          <SimpleGrid cols={2}>
            <CountBars data={page.byPrefix} by="prefix" colour="#228be6" />
            <CountBars data={page.byType} by="type" colour="#2f9e44" />
          </SimpleGrid>
        )}
      </Card>
    </>
  );
}

/** Each campus model's quality on held-out terms. */
function ModelQuality({ metrics }: { metrics: Metrics }) {
  return (
    <Card withBorder>
      <Text fw={600} mb="xs">
        Model quality per campus (held-out terms)
      </Text>
      {metrics.models.length === 0 ? (
        <Text c="dimmed">No model trained yet: train on the Predictions screen.</Text>
      ) : (
        <Table
          data-testid="model-quality"
          data={{
            head: [
              'Campus',
              <span title={RANKS_RIGHT_HINT}>Ranked right</span>,
              <span title={OFFER_LIST_HINT}>Offer list matched</span>,
              'Learned from',
              'Trained',
            ],
            body: metrics.models.map((m) => [
              m.campus,
              <Badge variant="light" title={modelDetails(m)}>
                {outOf100(m.roc_auc)}
              </Badge>,
              <span title={modelDetails(m)}>{outOf100(m.f1)}</span>,
              `${m.samples.toLocaleString()} course-terms`,
              new Date(m.trained_at).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' }),
            ]),
          }}
        />
      )}
    </Card>
  );
}

export function DashboardPage() {
  const page = useDashboardPage();
  const role = useRole();
  const { metrics, error, campuses } = page;
  if (!metrics) return <ErrorNote message={error} />;
  if (page.empty) return <EmptyState loading={page.loadingSample} onLoadSample={() => void page.loadSample()} {...role} />;
  return (
    <Stack>
      <Title order={2}>Dashboard</Title>
      <ErrorNote message={error} />
      <KpiGrid metrics={metrics} campuses={campuses} />
      <SimpleGrid cols={{ base: 1, lg: 2 }}>
        <Charts page={page} />
        <ModelQuality metrics={metrics} />
      </SimpleGrid>
    </Stack>
  );
}
