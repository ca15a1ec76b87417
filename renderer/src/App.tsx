import { useEffect, useState } from 'react';
import { AppShell, Group, NavLink, Text, Title } from '@mantine/core';
import { DashboardPage } from './pages/DashboardPage';
import { DataPage } from './pages/DataPage';
import { PredictionsPage } from './pages/PredictionsPage';
import { SchedulerPage } from './pages/SchedulerPage';
import { SettingsPage } from './pages/SettingsPage';
import { useProgress } from './stores/progress';

const PAGES = [
  { id: 'dashboard', label: 'Dashboard', element: <DashboardPage /> },
  { id: 'data', label: 'Data', element: <DataPage /> },
  { id: 'predictions', label: 'Predictions', element: <PredictionsPage /> },
  { id: 'scheduler', label: 'Scheduler', element: <SchedulerPage /> },
  { id: 'settings', label: 'Settings', element: <SettingsPage /> },
] as const;

type PageId = (typeof PAGES)[number]['id'];

function pageFromHash(): PageId {
  const id = window.location.hash.replace(/^#\/?/, '');
  return PAGES.find((p) => p.id === id)?.id ?? 'dashboard';
}

export function App() {
  const [page, setPage] = useState<PageId>(pageFromHash);
  const startProgress = useProgress((s) => s.start);
  useEffect(() => startProgress(), [startProgress]);
  useEffect(() => {
    const onHash = (): void => setPage(pageFromHash());
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, []);
  const current = PAGES.find((p) => p.id === page) ?? PAGES[0];
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
          <NavLink key={p.id} href={`#/${p.id}`} label={p.label} active={p.id === page} data-testid={`nav-${p.id}`} aria-current={p.id === page ? 'page' : undefined} />
        ))}
      </AppShell.Navbar>
      <AppShell.Main>{current.element}</AppShell.Main>
    </AppShell>
  );
}
