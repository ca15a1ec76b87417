import { lazy, Suspense, useEffect, useState } from 'react';
import { AppShell, Group, Loader, NavLink, Text, Title } from '@mantine/core';
import { useProgress } from './stores/progress';
import { useData } from './stores/data';
import { useDashboard } from './stores/dashboard';
import { useSchedule } from './stores/schedule';
import { useSession } from './stores/session';
import { transport } from './api/client';
import { SignedOut } from './components/SignedOut';
import { followChanges } from './stores/changes';
import { useCampuses } from './stores/campuses';

if (transport.signIn !== 'none') useSession.getState().signedOut(transport.signIn);
transport.onSessionEnded = () => useSession.getState().signedOut('ended');

// Each screen is its own chunk: opening the Scheduler does not parse the charts, and so on.
const DashboardPage = lazy(() => import('./pages/DashboardPage').then((m) => ({ default: m.DashboardPage })));
const DataPage = lazy(() => import('./pages/DataPage').then((m) => ({ default: m.DataPage })));
const PredictionsPage = lazy(() => import('./pages/PredictionsPage').then((m) => ({ default: m.PredictionsPage })));
const SchedulerPage = lazy(() => import('./pages/SchedulerPage').then((m) => ({ default: m.SchedulerPage })));
const SettingsPage = lazy(() => import('./pages/SettingsPage').then((m) => ({ default: m.SettingsPage })));

/** Each screen, and the data it needs: fetched as the screen is chosen, while its code loads. */
const PAGES = [
  { id: 'dashboard', label: 'Dashboard', element: <DashboardPage />, load: () => useDashboard.getState().refresh() },
  { id: 'data', label: 'Data', element: <DataPage />, load: () => useData.getState().refresh() },
  { id: 'predictions', label: 'Predictions', element: <PredictionsPage />, load: () => Promise.resolve() },
  { id: 'scheduler', label: 'Scheduler', element: <SchedulerPage />, load: () => Promise.all([useSchedule.getState().refresh(), useData.getState().refreshCatalog()]) },
  { id: 'settings', label: 'Settings', element: <SettingsPage />, load: () => Promise.resolve() },
] as const;

type PageId = (typeof PAGES)[number]['id'];

function pageFromHash(): PageId {
  const id = window.location.hash.replace(/^#\/?/, '');
  return PAGES.find((p) => p.id === id)?.id ?? 'dashboard';
}

export function App() {
  const problem = useSession((s) => s.problem);
  return problem === 'none' ? <Screens /> : <SignedOut problem={problem} />;
}

function Screens() {
  const [page, setPage] = useState<PageId>(pageFromHash);
  const startProgress = useProgress((s) => s.start);
  useEffect(() => startProgress(), [startProgress]);
  // Writes from anywhere (this page, the desktop menu, a script) reload the stores they affect.
  useEffect(() => followChanges(), []);
  useEffect(() => void useCampuses.getState().load(), []);
  useEffect(() => {
    const onHash = (): void => setPage(pageFromHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const current = PAGES.find((p) => p.id === page) ?? PAGES[0];
  useEffect(() => {
    void current.load();
  }, [current]);
  return (
    <AppShell navbar={{ width: 200, breakpoint: 0 }} header={{ height: 52 }} padding="md">
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between">
          <Title order={3}>Termwise</Title>
          <Text size="sm" c="dimmed">
            Course offering planner
          </Text>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Screens">
        {PAGES.map((p) => (
          <NavLink key={p.id} href={`#/${p.id}`} label={p.label} active={p.id === page} variant="filled" data-testid={`nav-${p.id}`} aria-current={p.id === page ? 'page' : undefined} />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>
        <Suspense fallback={<Loader aria-label="Loading" />}>{current.element}</Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
