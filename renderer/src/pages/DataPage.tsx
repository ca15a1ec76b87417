import { useMemo } from 'react';
import { Badge, Group, SimpleGrid, Stack, Tabs, Title } from '@mantine/core';
import type { ColumnDef } from '@tanstack/react-table';
import { useDataTables } from '../controllers/data';
import type { Course, Doctor, Offering } from '../api/wire';
import { DataGrid } from '../components/DataGrid';
import { ImportCard } from '../components/ImportCard';
import { FileFormatsButton } from '../components/FileFormatsButton';
import { ErrorNote } from '../components/ErrorNote';
import { useRole } from '../controllers/session';
import { IncompleteTerms } from '../components/IncompleteTerms';

const list = (json: string | null): string => {
  if (!json) return '';
  try {
    const parsed: unknown = JSON.parse(json);
    return Array.isArray(parsed) ? parsed.join(', ') : json;
  } catch {
    return json;
  }
};

const NONE: never[] = [];

export function DataPage() {
  const { canWrite } = useRole();
  // Live: an import here, in another window or by a script shows at once.
  const { courses, offerings, doctors } = useDataTables();
  const error = courses.error ?? offerings.error ?? doctors.error;
  const courseColumns = useMemo<ColumnDef<Course, unknown>[]>(
    () => [
      { accessorKey: 'code', header: 'Code', size: 130 },
      { accessorKey: 'name', header: 'Name', size: 280 },
      { accessorFn: (c) => list(c.type), id: 'type', header: 'Type', size: 140 },
      { accessorKey: 'course_level', header: 'Level', size: 70 },
      { accessorFn: (c) => list(c.prerequisites), id: 'prerequisites', header: 'Prerequisites', size: 200 },
      { accessorKey: 'study_plan', header: 'Study plan', size: 280 },
    ],
    [],
  );
  const offeringColumns = useMemo<ColumnDef<Offering, unknown>[]>(
    () => [
      { accessorKey: 'course_code', header: 'Course', size: 130 },
      { accessorKey: 'year', header: 'Year', size: 70 },
      { accessorKey: 'semester', header: 'Semester', size: 90 },
      { accessorKey: 'campus', header: 'Campus', size: 90 },
      { accessorKey: 'total_enrolled', header: 'Enrolled', size: 90 },
      { accessorKey: 'passed_count', header: 'Passed', size: 80 },
      { accessorKey: 'failed_count', header: 'Failed', size: 80 },
      { accessorFn: (o) => Math.round(o.fail_ratio * 1000) / 10, id: 'fail_ratio', header: 'Fail %', size: 80 },
      { accessorFn: (o) => (o.is_offered ? 'yes' : 'no'), id: 'is_offered', header: 'Offered', size: 80 },
    ],
    [],
  );
  const doctorColumns = useMemo<ColumnDef<Doctor, unknown>[]>(
    () => [
      { accessorKey: 'name', header: 'Name', size: 220 },
      { accessorFn: (d) => list(d.allowed_courses), id: 'allowed', header: 'Allowed courses', size: 380 },
      { accessorKey: 'available_days', header: 'Days', size: 90, cell: (c) => (c.getValue() as string | null) ?? <Badge variant="light">any</Badge> },
      { accessorKey: 'available_time', header: 'Hours', size: 120, cell: (c) => (c.getValue() as string | null) ?? <Badge variant="light">any</Badge> },
    ],
    [],
  );
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={2}>Data</Title>
        <FileFormatsButton />
      </Group>
      <ErrorNote message={error} />
      {/* A viewer reads the department's data; importing it is for the schedulers. */}
      {canWrite && (
        <SimpleGrid cols={{ base: 1, lg: 3 }}>
          <ImportCard kind="courses" />
          <ImportCard kind="offerings" />
          <ImportCard kind="doctors" />
        </SimpleGrid>
      )}
      <IncompleteTerms />
      <Tabs defaultValue="courses" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="courses">Courses ({courses.data?.length ?? 0})</Tabs.Tab>
          <Tabs.Tab value="offerings">Offerings ({(offerings.data?.length ?? 0).toLocaleString()})</Tabs.Tab>
          <Tabs.Tab value="doctors">Doctors ({doctors.data?.length ?? 0})</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="courses" pt="xs">
          <DataGrid rows={courses.data ?? NONE} columns={courseColumns} label="Courses" testId="grid-courses" />
        </Tabs.Panel>
        <Tabs.Panel value="offerings" pt="xs">
          <DataGrid rows={offerings.data ?? NONE} columns={offeringColumns} label="Offerings" testId="grid-offerings" />
        </Tabs.Panel>
        <Tabs.Panel value="doctors" pt="xs">
          <DataGrid rows={doctors.data ?? NONE} columns={doctorColumns} label="Doctors" testId="grid-doctors" />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}
