import { useEffect, useState } from 'react';
import { Alert, Button, Card, Group, List, PasswordInput, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import {
  meetingWords,
  sideOf,
  type ConflictChoice,
  type ConflictSide,
  type MeetingState,
  type SyncConflict,
  type SyncCounts,
  type SyncOutcome,
} from '../../../core/domain/meeting-changes';
import { useCampusLink } from '../controllers/campus-link';
import { useCurrentTerm } from '../controllers/timetable';
import type { Term } from '../api/wire';
import { TermPicker } from './TermPicker';
import { SubmitForm } from './SubmitForm';

/** Where this computer's copy of the term stands against the server. */
function SyncCountsLine({ counts, onRefresh }: { counts: SyncCounts | null; onRefresh: () => void }) {
  return (
    <Group gap="xs" data-testid="sync-counts">
      <Text size="sm">
        {counts === null
          ? 'Not compared with the server yet.'
          : `${counts.not_published} change${counts.not_published === 1 ? '' : 's'} not published · ${
              counts.base_revision === null
                ? `the server has ${counts.server_changes} meeting${counts.server_changes === 1 ? '' : 's'} (never fetched here)`
                : `the server has ${counts.server_changes} change${counts.server_changes === 1 ? '' : 's'} since your copy`
            }`}
      </Text>
      <Button size="compact-xs" variant="subtle" onClick={onRefresh}>
        Compare
      </Button>
    </Group>
  );
}

const version = (m: MeetingState | null): string => (m === null ? 'deleted' : meetingWords(m));

const choiceShown = (choice: ConflictChoice | undefined): string => (choice === undefined ? '' : sideOf(choice));

/** The conflicts (both versions, a choice for each) and the refusals of the last publish or fetch: nothing was stored. */
interface SyncProblemsProps {
  outcome: SyncOutcome;
  choices: Record<string, ConflictChoice>;
  /** The person keeps one side of a conflict, against the server's version shown. */
  onChoose: (conflict: SyncConflict, side: ConflictSide) => void;
}

function SyncProblems({ outcome, choices, onChoose }: SyncProblemsProps) {
  return (
    <Alert color="orange" data-testid="sync-problems" title="Nothing was stored">
      {outcome.conflicts.length > 0 && (
        <Stack gap={6}>
          <Text size="sm">
            {outcome.conflicts.length} meeting{outcome.conflicts.length === 1 ? ' was' : 's were'} changed both here and on the server. Choose for each, then
            publish or fetch again.
          </Text>
          {outcome.conflicts.slice(0, 100).map((c) => (
            <Group key={c.meeting_uid} justify="space-between" wrap="nowrap" data-testid="sync-conflict">
              <Text size="sm">
                <b>
                  {c.course_code} §{c.section_name}
                </b>
                : yours {version(c.yours)}; on the server {version(c.theirs)}
                {c.their_change ? ` (by ${c.their_change.who})` : ''}
              </Text>
              <SegmentedControl
                size="xs"
                value={choiceShown(choices[c.meeting_uid])}
                onChange={(v) => onChoose(c, v as ConflictSide)}
                data={[
                  { value: 'mine', label: 'Keep mine' },
                  { value: 'theirs', label: 'Keep theirs' },
                ]}
                aria-label={`${c.course_code} §${c.section_name}: keep which version`}
              />
            </Group>
          ))}
        </Stack>
      )}
      {outcome.refused.length > 0 && (
        <List size="sm" mt={4}>
          {outcome.refused.slice(0, 100).map((r) => (
            <List.Item key={r.meeting_uid}>
              {r.course_code} §{r.section_name}: {r.reason}
            </List.Item>
          ))}
        </List>
      )}
    </Alert>
  );
}

type CampusLink = ReturnType<typeof useCampusLink>;

/** Settings → Campus server, in the desktop app: plan offline or on a campus server, publish a term, fetch one back. */
export function CampusServerCard() {
  const link = useCampusLink();
  const current = useCurrentTerm();
  const connected = link.status?.connected === true;
  const { refreshCounts } = link;
  // Compared once on opening; again after each publish or fetch, and on Compare.
  useEffect(() => {
    if (connected && current) void refreshCounts(current);
  }, [connected, current?.year, current?.semester]);
  if (!link.available || !link.status) return null;
  return (
    <Card withBorder data-testid="campus-server-card">
      <Stack gap="xs">
        <Text fw={600}>Campus server</Text>
        {link.status.connected ? <ConnectedServer link={link} current={current} /> : <ConnectForm link={link} />}
        {link.problem && (
          <Alert color="red" role="alert">
            {link.problem}
          </Alert>
        )}
      </Stack>
    </Card>
  );
}

/** A connected server: where the screens plan, and for a term, checking, publishing and fetching with what each found. */
function ConnectedServer({ link, current }: { link: CampusLink; current: Term | null }) {
  const [chosen, setChosen] = useState<Term | null>(null);
  const term = chosen ?? current;
  const online = link.status?.online === true;
  return (
    <>
      <Text size="sm">
        {online ? 'The screens plan on' : 'The screens plan on this computer; publishing goes to'} <code>{link.status?.url}</code>.
      </Text>
      <Group>
        <Button variant="default" onClick={() => void link.goOnline(!online)}>
          {online ? 'Work offline' : 'Work on the server'}
        </Button>
        <Button variant="subtle" color="red" onClick={() => void link.disconnect()}>
          Disconnect
        </Button>
      </Group>
      {term && (
        <Group align="end">
          <TermPicker
            label="Term"
            value={term}
            onChange={(t) => {
              setChosen(t);
              void link.refreshCounts(t);
            }}
          />
          <Button variant="default" onClick={() => void link.publish(term, true)}>
            Check against the server
          </Button>
          <Button onClick={() => void link.publish(term, false)} data-testid="campus-publish">
            Publish this computer&apos;s changes
          </Button>
          <Button variant="default" onClick={() => void link.fetchBack(term)} data-testid="campus-fetch">
            Fetch the server&apos;s changes
          </Button>
        </Group>
      )}
      {term && <SyncCountsLine counts={link.counts} onRefresh={() => void link.refreshCounts(term)} />}
      {link.outcome && <SyncProblems outcome={link.outcome} choices={link.choices} onChoose={link.choose} />}
      <Text size="xs" c="dimmed">
        Publishing sends the changes made on this computer since its copy of the term, and the server replays each through its rules; fetching brings the
        server&apos;s changes here and keeps yours on top. Nothing is replaced: a meeting changed on both sides is listed with both versions, and nothing is
        stored until you keep yours or theirs.
      </Text>
    </>
  );
}

/** Connecting to a campus server with a login and password (only a personal token for this computer is kept). */
function ConnectForm({ link }: { link: CampusLink }) {
  return (
    <SubmitForm label="Connect to a campus server" onSubmit={link.connect}>
      <Group align="end" gap="xs">
        <TextInput
          label="Server address"
          placeholder="https://termwise.campus.example/"
          required
          value={link.form.url}
          onChange={(e) => link.edit({ url: e.currentTarget.value })}
          w={280}
        />
        <TextInput label="Login" required value={link.form.login} onChange={(e) => link.edit({ login: e.currentTarget.value })} w={140} />
        <PasswordInput label="Password" required value={link.form.password} onChange={(e) => link.edit({ password: e.currentTarget.value })} w={160} />
        <Button type="submit">Connect</Button>
      </Group>
      <Text size="xs" c="dimmed" mt={4}>
        The password is not kept: a personal token for this computer is, encrypted by the operating system.
      </Text>
    </SubmitForm>
  );
}
