import { lazy, Suspense, useEffect, useState } from 'react';
import { AppShell, Group, Loader, NavLink, Text, Title } from '@mantine/core';
import { QueryClientProvider } from '@tanstack/react-query';
import { useProgress } from './stores/progress';
import { useSession, type SessionProblem } from './stores/session';
import type { SignedOutReason } from '../../core/domain/session-wire';
import { transport } from './api/client';
import { chooseDepartment } from './api/session';
import { followChanges, prefetchLive, queryClient } from './api/live';
import { SignedOut } from './components/SignedOut';
import { AccountBar } from './components/AccountBar';
import { useAccount } from './controllers/session';
import { prefetchScheduler } from './controllers/scheduler';

/** What the page says for each reason the server signed it out. */
const SIGNED_OUT_PROBLEM: Record<SignedOutReason, SessionProblem> = {
  account: 'disabled',
  password: 'password-changed',
  access: 'access-changed',
  session: 'ended',
};

if (transport.signIn !== 'none') useSession.getState().signedOut(transport.signIn);
transport.onSessionEnded = (reason) => {
  // A department chosen in the ended session is not carried into the next.
  chooseDepartment(null);
  useSession.getState().signedOut(SIGNED_OUT_PROBLEM[reason]);
};

// Each screen is its own chunk: opening the Scheduler does not parse the charts, and so on.
const DashboardPage = lazy(() => import('./pages/DashboardPage').then((m) => ({ default: m.DashboardPage })));
const DataPage = lazy(() => import('./pages/DataPage').then((m) => ({ default: m.DataPage })));
const PredictionsPage = lazy(() => import('./pages/PredictionsPage').then((m) => ({ default: m.PredictionsPage })));
const SchedulerPage = lazy(() => import('./pages/SchedulerPage').then((m) => ({ default: m.SchedulerPage })));
const CampusPage = lazy(() => import('./pages/CampusPage').then((m) => ({ default: m.CampusPage })));
const SettingsPage = lazy(() => import('./pages/SettingsPage').then((m) => ({ default: m.SettingsPage })));

/** Each screen, and the reads it starts with: asked as the screen is chosen, while its code loads. */
const PAGES = [
  { id: 'dashboard', label: 'Dashboard', element: <DashboardPage />, load: () => prefetchLive('dashboard-metrics', {}) },
  {
    id: 'data',
    label: 'Data',
    element: <DataPage />,
    load: () => Promise.all([prefetchLive('courses-list', {}), prefetchLive('offerings-list', {}), prefetchLive('doctors-list', {})]),
  },
  { id: 'predictions', label: 'Predictions', element: <PredictionsPage />, load: () => prefetchLive('predict-next-term', {}) },
  {
    id: 'scheduler',
    label: 'Scheduler',
    element: <SchedulerPage />,
    load: () => Promise.all([prefetchScheduler(), prefetchLive('courses-list', {}), prefetchLive('doctors-list', {})]),
  },
  { id: 'campus', label: 'Campus', element: <CampusPage />, load: () => prefetchLive('campus-week', {}) },
  { id: 'settings', label: 'Settings', element: <SettingsPage />, load: () => prefetchLive('settings-info', {}) },
] as const;

type PageId = (typeof PAGES)[number]['id'];

function pageFromHash(): PageId {
  const id = window.location.hash.replace(/^#\/?/, '');
  return PAGES.find((p) => p.id === id)?.id ?? 'dashboard';
}

export function App() {
  const problem = useSession((s) => s.problem);
  return problem === 'none' ? (
    <QueryClientProvider client={queryClient}>
      <Screens />
    </QueryClientProvider>
  ) : (
    <SignedOut problem={problem} />
  );
}

function Screens() {
  const [page, setPage] = useState<PageId>(pageFromHash);
  const startProgress = useProgress((s) => s.start);
  useEffect(() => startProgress(), [startProgress]);
  // Writes from anywhere (this page, the desktop menu, a script) reload the reads they affect.
  useEffect(() => followChanges(), []);
  // The campuses name the choices of several screens: asked once, at start.
  useEffect(() => void prefetchLive('campuses-list', {}), []);
  useEffect(() => {
    const onHash = (): void => setPage(pageFromHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const current = PAGES.find((p) => p.id === page) ?? PAGES[0];
  // The Campus week is every department's: a one-department laptop has the Scheduler's week already.
  const { me, departments, isPerson } = useAccount();
  const campusShown = (me?.campus_server ?? false) || isPerson || departments.length > 1;
  useEffect(() => {
    // A read that fails here is asked again by the screen, which shows the refusal.
    current.load().catch(() => undefined);
  }, [current]);
  return (
    <AppShell navbar={{ width: 200, breakpoint: 0 }} header={{ height: 52 }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="md" wrap="nowrap" style={{ flexShrink: 0 }}>
            <Title order={3}>Termwise</Title>
            <Text size="sm" c="dimmed" visibleFrom="md">
              Course offering planner
            </Text>
          </Group>
          <AccountBar />
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Screens">
        {PAGES.filter((p) => p.id !== 'campus' || campusShown).map((p) => (
          <NavLink
            key={p.id}
            href={`#/${p.id}`}
            label={p.label}
            active={p.id === page}
            variant="filled"
            data-testid={`nav-${p.id}`}
            aria-current={p.id === page ? 'page' : undefined}
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        <Suspense fallback={<Loader aria-label="Loading" />}>{current.element}</Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
