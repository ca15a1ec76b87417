import { Group, NumberInput, Select } from '@mantine/core';
import { isYear, SEMESTERS, type Term, YEARS } from '../../../core/domain/terms';

/** A term as a semester and a year. */
export function TermPicker({ value, onChange, label, testId }: { value: Term; onChange: (term: Term) => void; label?: string; testId?: string }) {
  return (
    <Group gap={4} align="end" data-testid={testId}>
      <Select
        label={label}
        aria-label={label ?? 'Semester'}
        data={[...SEMESTERS]}
        value={value.semester}
        onChange={(v) => v && onChange({ ...value, semester: v })}
        allowDeselect={false}
        w={110}
        data-testid={testId ? `${testId}-semester` : undefined}
      />
      <NumberInput
        aria-label="Year"
        min={YEARS.min}
        max={YEARS.max}
        value={value.year}
        onChange={(v) => typeof v === 'number' && isYear(v) && onChange({ ...value, year: v })}
        w={90}
        data-testid={testId ? `${testId}-year` : undefined}
      />
    </Group>
  );
}
