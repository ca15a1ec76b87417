import { Button, Card, CopyButton, FileButton, Group, Modal, NumberInput, PasswordInput, Stack, Text, Title } from '@mantine/core';
import { TermPicker } from '../components/TermPicker';
import { ErrorNote } from '../components/ErrorNote';
import { DepartmentProfileCard } from '../components/DepartmentProfileCard';
import { PeopleCard } from '../components/PeopleCard';
import { DepartmentsCard } from '../components/DepartmentsCard';
import { TokensCard } from '../components/TokensCard';
import { CampusServerCard } from '../components/CampusServerCard';
import { useSettingsPage, useTimetableSettings } from '../controllers/settings';
import { useAccount, useRole } from '../controllers/session';

type SettingsPageState = ReturnType<typeof useSettingsPage>;
type Info = NonNullable<SettingsPageState['info']>;

/** Where the data lives (shown to the installation only), backups and the sample data (the registrar's). */
function DataCard({ page, info }: { page: SettingsPageState; info: Info }) {
  return (
    <Card withBorder>
      <Stack gap="xs">
        <Text fw={600}>Data</Text>
        {info.data_dir !== null && (
          <Text size="sm">
            Data folder: <code data-testid="data-dir">{info.data_dir}</code>
          </Text>
        )}
        {info.database !== null && (
          <Text size="sm">
            Database: <code>{info.database}</code>
          </Text>
        )}
        <Group>
          <Button variant="default" onClick={() => void page.backup()}>
            Back up database
          </Button>
          <FileButton onChange={(f) => void page.restore(f)} accept=".db,.sqlite">
            {(props) => (
              <Button variant="default" {...props}>
                Restore from backup…
              </Button>
            )}
          </FileButton>
          <Button variant="default" onClick={() => void page.loadSample()}>
            Load sample data
          </Button>
        </Group>
      </Stack>
    </Card>
  );
}

/** The REST API's address and token (never shown in a browser), and making a new token. */
function ApiCard({ page, info }: { page: SettingsPageState; info: Info }) {
  return (
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
              <Button color="red" variant="light" onClick={page.askToRegenerate}>
                Regenerate…
              </Button>
            )}
          </Group>
        )}
        <Modal opened={page.confirmingRegenerate} onClose={page.keepToken} title="Make a new API token?">
          <Stack gap="sm">
            <Text size="sm">
              Scripts that use the current token stop working until they are given the new one, and every browser signed in to Termwise is signed out.
            </Text>
            <Group justify="flex-end">
              <Button variant="default" onClick={page.keepToken}>
                Keep the current token
              </Button>
              <Button color="red" onClick={() => void page.regenerate()}>
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
  );
}

export function SettingsPage() {
  const page = useSettingsPage();
  const account = useAccount();
  const role = useRole();
  const { info, error } = page;
  return (
    <Stack maw={760}>
      <Title order={2}>Settings</Title>
      <ErrorNote message={error} />
      {info && (
        <>
          {account.isRegistrar && <DataCard page={page} info={info} />}
          {/* A viewer reads the department's settings; every field and button in them is disabled. */}
          <fieldset disabled={!role.canWrite} className="tw-plain-fieldset">
            <Stack>
              <DepartmentProfileCard />
              <TimetableSettingsCard />
            </Stack>
          </fieldset>
          {/* A laptop's single department sees none of the campus's administration. */}
          {account.isRegistrar && (account.isPerson || account.departments.length > 1) && <DepartmentsCard />}
          {account.isRegistrar && (account.isPerson || account.departments.length > 1) && <PeopleCard />}
          {account.isPerson && <TokensCard />}
          <CampusServerCard />
          {!account.isPerson && <ApiCard page={page} info={info} />}
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
  const { settings, values, edit, save } = useTimetableSettings();
  if (!settings || !values) return null;
  return (
    <Card withBorder data-testid="timetable-settings">
      <Stack gap="xs">
        <Text fw={600}>Timetable</Text>
        <Group align="end">
          <TermPicker label="Current term" value={values.term} onChange={(term) => edit({ term })} testId="current-term" />
          <NumberInput
            label="Travel time between campuses (minutes)"
            min={0}
            max={600}
            value={values.travel}
            onChange={(travel) => edit({ travel })}
            w={260}
            data-testid="travel-minutes"
          />
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
