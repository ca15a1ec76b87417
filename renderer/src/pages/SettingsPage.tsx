import { useEffect, useState } from 'react';
import { Button, Card, CopyButton, FileButton, Group, Modal, NumberInput, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { TermPicker } from '../components/TermPicker';
import { useSchedule } from '../stores/schedule';
import { termLabel, type Term } from '../../../core/domain/terms';
import { call, fileToUpload, transport, type Result } from '../api/client';
import { messageOf } from '../api/errors';
import { ErrorNote } from '../components/ErrorNote';
import { DepartmentProfileCard } from '../components/DepartmentProfileCard';
import { notifyDone, notifyError } from '../lib/notify';

type Info = Result<'settings-info'>;

export function SettingsPage() {
  const [info, setInfo] = useState<Info | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [confirmingRegenerate, setConfirmingRegenerate] = useState(false);
  const load = (): void => {
    call('settings-info', {})
      .then(setInfo)
      .catch((e: unknown) => setError(messageOf(e)));
  };
  useEffect(load, []);
  const regenerate = async (): Promise<void> => {
    setConfirmingRegenerate(false);
    try {
      await call('settings-regenerate-token', {});
      notifyDone('Scripts must use the new token from now on.', 'Token regenerated');
      load();
    } catch (e) {
      notifyError(e);
    }
  };
  const backup = async (): Promise<void> => {
    try {
      await transport.saveFile(await call('database-backup', {}));
    } catch (e) {
      notifyError(e, 'Backup failed');
    }
  };
  const restore = async (file: File | null): Promise<void> => {
    if (!file) return;
    try {
      await call('database-restore', { file: await fileToUpload(file) });
      notifyDone(`Restored from ${file.name}.`, 'Database restored');
    } catch (e) {
      notifyError(e, 'Restore failed');
    }
  };
  const sample = async (): Promise<void> => {
    try {
      await call('sample-load', {});
      notifyDone('Sample data imported.');
    } catch (e) {
      notifyError(e);
    }
  };
  return (
    <Stack maw={760}>
      <Title order={2}>Settings</Title>
      <ErrorNote message={error} />
      {info && (
        <>
          <Card withBorder>
            <Stack gap="xs">
              <Text fw={600}>Data</Text>
              <Text size="sm">
                Data folder: <code data-testid="data-dir">{info.data_dir}</code>
              </Text>
              <Text size="sm">
                Database: <code>{info.database_file}</code>
              </Text>
              <Group>
                <Button variant="default" onClick={() => void backup()}>
                  Back up database
                </Button>
                <FileButton onChange={(f) => void restore(f)} accept=".db,.sqlite">
                  {(props) => (
                    <Button variant="default" {...props}>
                      Restore from backup…
                    </Button>
                  )}
                </FileButton>
                <Button variant="default" onClick={() => void sample()}>
                  Load sample data
                </Button>
              </Group>
            </Stack>
          </Card>
          <DepartmentProfileCard />
          <TimetableSettingsCard />
          <Card withBorder>
            <Stack gap="xs">
              <Text fw={600}>REST API for scripts</Text>
              <Text size="sm">
                Address: <code data-testid="api-url">{info.api_url ?? 'not running'}</code>
              </Text>
              <Text size="sm" c="dimmed">
                Token kept in {info.token_source ?? '—'}
              </Text>
              {info.api_token === null ? (
                <Text size="sm" data-testid="token-hidden">
                  The token is not shown in a browser: read it from that file on this computer, or open Settings in the desktop app.
                </Text>
              ) : (
                <Group align="end">
                  <PasswordInput label="API token" value={info.api_token} readOnly w={520} />
                  <CopyButton value={info.api_token}>
                    {({ copied, copy }) => (
                      <Button variant="default" onClick={copy}>
                        {copied ? 'Copied' : 'Copy'}
                      </Button>
                    )}
                  </CopyButton>
                  {info.token_regenerable && (
                    <Button color="red" variant="light" onClick={() => setConfirmingRegenerate(true)}>
                      Regenerate…
                    </Button>
                  )}
                </Group>
              )}
              <Modal opened={confirmingRegenerate} onClose={() => setConfirmingRegenerate(false)} title="Make a new API token?">
                <Stack gap="sm">
                  <Text size="sm">Scripts that use the current token stop working until they are given the new one, and every browser signed in to Termwise is signed out.</Text>
                  <Group justify="flex-end">
                    <Button variant="default" onClick={() => setConfirmingRegenerate(false)}>
                      Keep the current token
                    </Button>
                    <Button color="red" onClick={() => void regenerate()}>
                      Make a new token
                    </Button>
                  </Group>
                </Stack>
              </Modal>
              <Text size="xs" c="dimmed">
                Example: curl -H "Authorization: Bearer &lt;token&gt;" {info.api_url ?? 'http://127.0.0.1:4610/'}dashboard/metrics
              </Text>
            </Stack>
          </Card>
          <Card withBorder>
            <Text fw={600}>About</Text>
            <Text size="sm">Termwise {info.version} — plans which courses to offer and builds the weekly timetable, offline.</Text>
          </Card>
        </>
      )}
    </Stack>
  );
}

/** The current timetable term (where new entries go and what opens first) and the travel time between campuses. */
function TimetableSettingsCard() {
  const settings = useSchedule((s) => s.settings);
  const [term, setTerm] = useState<Term | null>(null);
  const [travel, setTravel] = useState<number | string>('');
  useEffect(() => {
    if (!settings) void useSchedule.getState().refresh();
    else {
      setTerm(settings.current_term);
      setTravel(settings.travel_minutes);
    }
  }, [settings]);
  if (!settings || !term) return null;
  const save = async (): Promise<void> => {
    try {
      await call('schedule-settings-update', { current_term: term, travel_minutes: Number(travel) });
      // The scheduler opens on the new current term.
      await useSchedule.getState().showTerm(term);
      notifyDone(`New entries go to ${termLabel(term)}; instructors need ${Number(travel)} minutes between campuses.`, 'Timetable settings saved');
    } catch (e) {
      notifyError(e, 'Settings not saved');
    }
  };
  return (
    <Card withBorder data-testid="timetable-settings">
      <Stack gap="xs">
        <Text fw={600}>Timetable</Text>
        <Group align="end">
          <TermPicker label="Current term" value={term} onChange={setTerm} testId="current-term" />
          <NumberInput label="Travel time between campuses (minutes)" min={0} max={600} value={travel} onChange={setTravel} w={260} data-testid="travel-minutes" />
          <Button onClick={() => void save()} data-testid="timetable-settings-save">
            Save
          </Button>
        </Group>
        <Text size="xs" c="dimmed">
          {settings.current_term_chosen ? 'Chosen here.' : 'Until you choose, it is the term after the latest offering record.'}
        </Text>
      </Stack>
    </Card>
  );
}
