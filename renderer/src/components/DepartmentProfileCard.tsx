import { ActionIcon, Button, Card, Group, NumberInput, Stack, Table, Text, Textarea, TextInput } from '@mantine/core';
import { MAX_SOFT_WEIGHT, SOFT_GOAL_LABELS, SOFT_GOALS } from '../../../core/domain/autofill';
import { useDepartmentProfile } from '../controllers/department-profile';
import { ErrorNote } from './ErrorNote';

type Profile = ReturnType<typeof useDepartmentProfile>;
type ProfileValues = NonNullable<Profile['values']>;

/** Settings → Department profile: quota categories, seats per section, sizes of particular courses, auto-fill's priorities. */
export function DepartmentProfileCard() {
  const profile = useDepartmentProfile();
  const { values, problem, save } = profile;
  if (!values) return profile.readError ? <ErrorNote message={`The department profile could not be read: ${profile.readError}`} /> : null;
  const { source } = values;

  return (
    <Card withBorder data-testid="department-profile">
      <Stack gap="xs">
        <Text fw={600}>Department profile</Text>
        <Text size="sm" c="dimmed">
          {source === 'catalog'
            ? 'Quota categories: every prefix and course type of your catalog, each with the number of its courses your first campus offered in a usual term. Change them and save to keep your own.'
            : 'Quota categories: your own, in the order runs fill them.'}
        </Text>
        <QuotaCategoriesTable profile={profile} rows={values.rows} />
        <SectionSizeFields profile={profile} values={values} />
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
              value={values.weights[goal]}
              onChange={(v) => profile.edit({ weights: { ...values.weights, [goal]: v } })}
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

/** The quota categories, each with its name and its number of courses, and a way to remove it. */
function QuotaCategoriesTable({ profile, rows }: { profile: Profile; rows: ProfileValues['rows'] }) {
  const change = profile.changeRow;
  return (
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
              <ActionIcon variant="subtle" color="red" onClick={() => profile.edit({ rows: rows.filter((_, k) => k !== i) })} aria-label={`Remove ${r.label}`}>
                ×
              </ActionIcon>
            </Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

/** Seats per section, and the sections of particular courses (a course code and its seats per line). */
function SectionSizeFields({ profile, values }: { profile: Profile; values: ProfileValues }) {
  return (
    <Group align="end">
      <NumberInput
        label="Seats per section"
        min={1}
        max={100000}
        value={values.seats}
        onChange={(v) => profile.edit({ seats: v })}
        w={160}
        data-testid="section-seats"
      />
      <Textarea
        label="Sections of particular courses (code and seats, one per line)"
        placeholder="PHYS211 200"
        autosize
        minRows={2}
        maxRows={6}
        value={values.sizes}
        onChange={(e) => profile.edit({ sizes: e.currentTarget.value })}
        w={360}
      />
    </Group>
  );
}
