import { memo, useMemo, useState } from 'react';
import { Button, Card, Group, Select, Stack, Text } from '@mantine/core';
import type { Term } from '../api/wire';
import { termKey } from '../../../core/domain/terms';
import { messageOf } from '../api/errors';
import { undoChange, useTermHistory, type HistoryFilter, type TermChange } from '../controllers/history';
import { ErrorNote } from './ErrorNote';
import { useWindowedRows, WindowBox } from './WindowedRows';

/** When a change was made, as a scheduler reads it: the time today, else the date and time. */
function whenMade(at: string): string {
  const date = new Date(at);
  if (Number.isNaN(date.getTime())) return at;
  const today = new Date().toDateString() === date.toDateString();
  const time = date.toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });
  return today ? time : `${date.toLocaleDateString('en-GB', { day: 'numeric', month: 'short' })} ${time}`;
}

interface ChangeListProps {
  changes: readonly TermChange[];
  /** Undo offered (not to viewers). */
  canUndo: boolean;
  testId: string;
  /** The list scrolls within this height, only the changes in view drawn. */
  maxHeight: number;
  /** The list's name, for screen readers. */
  label: string;
}

/** Changes in words, newest first, each with who and when, and its undo (the whole batch's too, when it changed several meetings). */
export function ChangeList({ changes, canUndo, testId, maxHeight, label }: ChangeListProps) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const batchSizes = useMemo(() => {
    const sizes = new Map<string, number>();
    for (const c of changes) sizes.set(c.batch, (sizes.get(c.batch) ?? 0) + 1);
    return sizes;
  }, [changes]);
  const windowed = useWindowedRows(changes.length, { maxHeight, rowHeight: 26 });
  const undo = async (change: TermChange, whole: boolean): Promise<void> => {
    setError(null);
    setBusy(true);
    try {
      await undoChange(change, whole);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Stack gap={4}>
      <ErrorNote message={error} testId={`${testId}-refusal`} />
      {changes.length === 0 && (
        <Text size="sm" c="dimmed">
          No changes recorded.
        </Text>
      )}
      <WindowBox box={windowed.box} maxHeight={maxHeight} label={label}>
        <div aria-hidden="true" style={{ height: windowed.before }} />
        {windowed.items.map((at) => {
          const change = changes[at.index];
          if (change === undefined) return null;
          const inBatch = batchSizes.get(change.batch) ?? 1;
          return (
            <Group
              key={change.id}
              justify="space-between"
              wrap="nowrap"
              gap="xs"
              data-testid={`${testId}-row`}
              data-change={change.id}
              data-index={at.index}
              ref={windowed.measure}
              py={2}
            >
              <Text size="xs" style={{ overflowWrap: 'anywhere' }}>
                {change.summary}{' '}
                <Text span c="dimmed" size="xs">
                  — {change.who}, {whenMade(change.at)}
                </Text>
              </Text>
              {canUndo && (
                <Group gap={4} wrap="nowrap">
                  <Button size="compact-xs" variant="default" disabled={busy} onClick={() => void undo(change, false)} data-testid={`${testId}-undo`}>
                    Undo
                  </Button>
                  {inBatch > 1 && (
                    <Button
                      size="compact-xs"
                      variant="default"
                      disabled={busy}
                      onClick={() => void undo(change, true)}
                      title={`Undo the ${inBatch} changes made with it`}
                    >
                      Undo all {inBatch}
                    </Button>
                  )}
                </Group>
              )}
            </Group>
          );
        })}
        <div aria-hidden="true" style={{ height: windowed.after }} />
      </WindowBox>
    </Stack>
  );
}

/**
 * The term's history in the Scheduler: every change in words, filtered by person and section, each
 * undoable. Drawn again only when its term or the reader's rights change (or its own reads): the
 * Scheduler redraws on every view switch, and up to 200 changes need not be drawn with it.
 */
export const HistoryPanel = memo(TermHistoryPanel, (a, b) => termKey(a.term) === termKey(b.term) && a.canUndo === b.canUndo);

function TermHistoryPanel({ term, canUndo }: { term: Term; canUndo: boolean }) {
  const [filter, setFilter] = useState<HistoryFilter>({});
  const history = useTermHistory(term, filter);
  // The people and sections to filter by: those of the changes loaded without a filter of their own kind.
  const all = useTermHistory(term);
  const people = useMemo(
    () => [...new Map(all.changes.filter((c) => c.person_id !== null).map((c) => [String(c.person_id), c.who.replace(/ \(token .*\)$/, '')])).entries()],
    [all.changes],
  );
  const sections = useMemo(() => [...new Set(all.changes.map((c) => `${c.course_code} §${c.section_name}`))].sort(), [all.changes]);
  const section = filter.course_code === undefined ? null : `${filter.course_code} §${filter.section_name ?? ''}`;
  return (
    <Card withBorder data-testid="history-panel" className="tw-no-print">
      <Group justify="space-between" mb="xs">
        <Text fw={600}>History{history.revision !== null ? ` (revision ${history.revision})` : ''}</Text>
        <Group gap="xs">
          <Select
            size="xs"
            placeholder="Everyone"
            clearable
            aria-label="Show the changes of one person"
            data={people.map(([value, label]) => ({ value, label }))}
            value={filter.person_id === undefined ? null : String(filter.person_id)}
            onChange={(v) => setFilter((f) => ({ ...f, person_id: v === null ? undefined : Number(v) }))}
            data-testid="history-person"
            w={180}
          />
          <Select
            size="xs"
            placeholder="Every section"
            clearable
            searchable
            aria-label="Show the changes of one section"
            data={sections}
            value={section}
            onChange={(v) => {
              const [course, sectionName] = v === null ? [undefined, undefined] : v.split(' §');
              setFilter((f) => ({ ...f, course_code: course, section_name: sectionName }));
            }}
            data-testid="history-section"
            w={180}
          />
        </Group>
      </Group>
      <ErrorNote message={history.error} />
      <ChangeList changes={history.changes} canUndo={canUndo} testId="history" maxHeight={320} label="Changes to this term" />
    </Card>
  );
}
