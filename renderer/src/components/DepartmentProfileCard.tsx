import { useMemo, useState } from 'react';
import { ActionIcon, Button, Card, Group, NumberInput, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import type { QuotaCategory } from '../../../core/domain/quotas';
import { MAX_SOFT_WEIGHT, SOFT_GOAL_LABELS, SOFT_GOALS, SOFT_WEIGHTS, type SoftGoal } from '../../../core/domain/autofill';
import { call, type Result } from '../api/client';
import { useLive } from '../api/live';
import { useDraft } from '../lib/use-draft';
import { ErrorNote } from './ErrorNote';
import { ApiError } from '../api/errors';
import { notifyDone, notifyError } from '../lib/notify';

type Row = Pick<QuotaCategory, 'prefix' | 'type' | 'label' | 'count'>;

/** "PHYS211 200" per line ↔ { PHYS211: 200 }. */
function readSizes(text: string): { sizes: Record<string, number>; bad: string[] } {
  const sizes: Record<string, number> = {};
  const bad: string[] = [];
  for (const line of text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)) {
    const match = /^(\S+)\s*[:=,]?\s*(\d+)$/.exec(line);
    if (match?.[1] && match[2]) sizes[match[1].toUpperCase()] = Number(match[2]);
    else bad.push(line);
  }
  return { sizes, bad };
}

const writeSizes = (sizes: Record<string, number> | undefined): string =>
  Object.entries(sizes ?? {})
    .map(([code, n]) => `${code} ${n}`)
    .join('\n');

/**
 * The department's profile: the quota categories runs fill (its catalog's prefixes × types until
 * changed here), the seats per section it plans with, and sizes of particular courses.
 */
interface ProfileForm {
  rows: Row[];
  source: 'profile' | 'catalog';
  seats: number | string;
  sizes: string;
  weights: Record<SoftGoal, number | string>;
}

const formOf = ({ categories, profile }: { categories: Result<'predict-quota-categories'>; profile: Result<'profile-get'> }): ProfileForm => ({
  rows: categories.categories.map(({ prefix, type, label, count }) => ({ prefix, type, label, count })),
  source: categories.source,
  seats: profile.section_size ?? 40,
  sizes: writeSizes(profile.section_sizes),
  weights: { ...SOFT_WEIGHTS, ...profile.autofill_weights },
});

/** The weights that differ from auto-fill's own (null: none do). */
function ownWeights(weights: ProfileForm['weights']): Partial<Record<SoftGoal, number>> | null {
  const own = Object.fromEntries(
    SOFT_GOALS.flatMap((goal) => (typeof weights[goal] === 'number' && weights[goal] !== SOFT_WEIGHTS[goal] ? [[goal, weights[goal]]] : [])),
  );
  return Object.keys(own).length > 0 ? own : null;
}

export function DepartmentProfileCard() {
  const categories = useLive('predict-quota-categories', {});
  const profile = useLive('profile-get', {});
  const loaded = useMemo(
    () => (categories.data && profile.data ? { categories: categories.data, profile: profile.data } : null),
    [categories.data, profile.data],
  );
  const form = useDraft(loaded, formOf);
  const [problem, setProblem] = useState<string | null>(null);
  const readError = categories.error ?? profile.error;
  if (!form.values) return readError ? <ErrorNote message={`The department profile could not be read: ${readError}`} /> : null;
  const { rows, source, seats, sizes, weights } = form.values;

  const save = async (reset = false): Promise<void> => {
    setProblem(null);
    const read = readSizes(sizes);
    if (read.bad.length > 0) {
      setProblem(`Write one course per line with its seats, e.g. "PHYS211 200" (not "${read.bad[0]}")`);
      return;
    }
    try {
      await call('profile-update', {
        quota_categories: reset ? null : rows.map(({ prefix, type, label, count }) => ({ prefix, type, label, count })),
        section_size: typeof seats === 'number' ? seats : null,
        section_sizes: Object.keys(read.sizes).length > 0 ? read.sizes : null,
        autofill_weights: ownWeights(weights),
      });
      form.saved();
      notifyDone(
        reset ? "Runs use the catalog's prefixes and types again." : 'Runs use these categories and section sizes from now on.',
        'Department profile saved',
      );
    } catch (e) {
      if (e instanceof ApiError && e.fields.length > 0) setProblem(e.fields.map((f) => `${f.field}: ${f.message}`).join('; '));
      else notifyError(e, 'The department profile was not saved');
    }
  };
  const change = (i: number, patch: Partial<Row>): void => form.edit({ rows: rows.map((r, k) => (k === i ? { ...r, ...patch } : r)) });

  return (
    <Card withBorder data-testid="department-profile">
      <Stack gap="xs">
        <Text fw={600}>Department profile</Text>
        <Text size="sm" c="dimmed">
          {source === 'catalog'
            ? 'Quota categories: every prefix and course type of your catalog, each with the number of its courses your first campus offered in a usual term. Change them and save to keep your own.'
            : 'Quota categories: your own, in the order runs fill them.'}
        </Text>
        <Table fz="sm" data-testid="quota-categories">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Category</Table.Th>
              <Table.Th>Courses</Table.Th>
              <Table.Th />
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r, i) => (
              <Table.Tr key={`${r.prefix}-${r.type ?? ''}`}>
                <Table.Td>
                  <TextInput
                    size="xs"
                    value={r.label}
                    onChange={(e) => change(i, { label: e.currentTarget.value })}
                    aria-label={`Name of the ${r.prefix}${r.type ? ` ${r.type}` : ''} category`}
                  />
                </Table.Td>
                <Table.Td>
                  <NumberInput
                    size="xs"
                    min={0}
                    max={1000}
                    w={90}
                    value={r.count}
                    onChange={(v) => change(i, { count: Number(v) || 0 })}
                    aria-label={`Courses of ${r.label}`}
                  />
                </Table.Td>
                <Table.Td>
                  <ActionIcon variant="subtle" color="red" onClick={() => form.edit({ rows: rows.filter((_, k) => k !== i) })} aria-label={`Remove ${r.label}`}>
                    ×
                  </ActionIcon>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
        <Group align="end">
          <NumberInput
            label="Seats per section"
            min={1}
            max={100000}
            value={seats}
            onChange={(v) => form.edit({ seats: v })}
            w={160}
            data-testid="section-seats"
          />
          <Textarea
            label="Sections of particular courses (code and seats, one per line)"
            placeholder="PHYS211 200"
            autosize
            minRows={2}
            maxRows={6}
            value={sizes}
            onChange={(e) => form.edit({ sizes: e.currentTarget.value })}
            w={360}
          />
        </Group>
        <Text size="sm" fw={500} mt="xs">
          Auto-fill&apos;s priorities
        </Text>
        <Text size="sm" c="dimmed">
          How much each goal weighs when auto-fill compares two drafts (0 ignores it); hard rules are never traded.
        </Text>
        <Group gap="xs" align="end" data-testid="autofill-weights">
          {SOFT_GOALS.map((goal) => (
            <NumberInput
              key={goal}
              size="xs"
              w={150}
              label={SOFT_GOAL_LABELS[goal]}
              min={0}
              max={MAX_SOFT_WEIGHT}
              step={0.5}
              decimalScale={2}
              value={weights[goal]}
              onChange={(v) => form.edit({ weights: { ...weights, [goal]: v } })}
            />
          ))}
        </Group>
        {problem && (
          <Text size="sm" c="red" role="alert">
            {problem}
          </Text>
        )}
        <Group>
          <Button onClick={() => void save()} data-testid="profile-save">
            Save
          </Button>
          {source === 'profile' && (
            <Button variant="default" onClick={() => void save(true)}>
              Use the catalog&apos;s categories
            </Button>
          )}
        </Group>
      </Stack>
    </Card>
  );
}
