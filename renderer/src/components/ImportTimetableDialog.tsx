import { useEffect, useState } from 'react';
import { Button, Checkbox, FileButton, Group, Modal, Radio, Select, Stack, Text } from '@mantine/core';
import { fileToUpload, type FileUpload, type Result } from '../api/client';
import { importListing } from '../controllers/timetable';
import { messageOf } from '../api/errors';
import { termLabel, type Term } from '../../../core/domain/terms';
import type { InstructorRole } from '../../../core/domain/roles';
import { useCampusList } from '../controllers/catalog';
import { ErrorNote } from './ErrorNote';
import { ImportSummary, plural } from './ImportSummary';

type ImportResult = Result<'schedule-import'>;

/**
 * "Import timetable…": a registrar's listing (CSV or XLSX), previewed by a dry run — what will be
 * stored, created, grouped and refused — with the instructor roles and the clash policy to decide,
 * then applied in one go.
 */
export function ImportTimetableDialog({
  opened,
  term,
  onClose,
  onApplied,
}: {
  opened: boolean;
  term: Term;
  onClose: () => void;
  onApplied: (terms: Term[]) => void;
}) {
  const campuses = useCampusList();
  const [file, setFile] = useState<FileUpload | null>(null);
  const [intoShownTerm, setIntoShownTerm] = useState(false);
  const [campus, setCampus] = useState<string | null>(null);
  const [policy, setPolicy] = useState<'skip' | 'flag'>('skip');
  const [roles, setRoles] = useState<Record<string, InstructorRole>>({});
  const [preview, setPreview] = useState<ImportResult | null>(null);
  const [applied, setApplied] = useState<ImportResult | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    if (!opened) return;
    setFile(null);
    setPreview(null);
    setApplied(null);
    setError(null);
    setRoles({});
  }, [opened]);

  const run = async (dryRun: boolean, upload = file, decided = roles, conflicts = policy): Promise<void> => {
    if (!upload) return;
    setBusy(true);
    setError(null);
    try {
      const result = await importListing({
        file: upload,
        dry_run: dryRun,
        conflicts,
        ...(intoShownTerm ? { year: term.year, semester: term.semester } : {}),
        ...(campus ? { campus } : {}),
        ...(Object.keys(decided).length > 0 ? { roles: JSON.stringify(decided) } : {}),
      });
      if (dryRun) setPreview(result);
      else {
        setApplied(result);
        onApplied(result.terms);
      }
    } catch (e) {
      setError(messageOf(e));
      setPreview(null);
    } finally {
      setBusy(false);
    }
  };
  const choose = async (picked: File | null): Promise<void> => {
    if (!picked) return;
    const upload = await fileToUpload(picked);
    setFile(upload);
    setRoles({});
    await run(true, upload, {});
  };
  const decide = (instructor: string, role: InstructorRole): void => {
    const next = { ...roles, [instructor]: role };
    setRoles(next);
    void run(true, file, next);
  };
  const shown = applied ?? preview;

  return (
    <Modal opened={opened} onClose={onClose} title="Import a timetable" size="xl">
      <Stack gap="sm" data-testid="import-timetable">
        <Text size="sm" c="dimmed">
          A registrar's section listing, one row per meeting (CSV or XLSX). Nothing is stored until you apply the preview.
        </Text>
        <Group>
          <FileButton onChange={(f) => void choose(f)} accept=".csv,.xlsx">
            {(props) => (
              <Button {...props} variant="default" data-testid="import-timetable-pick">
                {file ? `Another file… (${file.filename})` : 'Choose file…'}
              </Button>
            )}
          </FileButton>
          <Checkbox label={`Put every row in ${termLabel(term)}`} checked={intoShownTerm} onChange={(e) => setIntoShownTerm(e.currentTarget.checked)} />
          {campuses.length > 1 && (
            <Select
              placeholder="Rooms' campus (default)"
              clearable
              data={campuses}
              value={campus}
              onChange={setCampus}
              w={200}
              aria-label="Campus of the file's rooms"
            />
          )}
        </Group>
        <Radio.Group
          label="Meetings that still clash"
          value={policy}
          onChange={(value) => {
            const next = value === 'flag' ? 'flag' : 'skip';
            setPolicy(next);
            if (preview && !applied) void run(true, file, roles, next);
          }}
        >
          <Group mt={4}>
            <Radio value="skip" label="Leave them out (listed below)" />
            <Radio value="flag" label="Store them with a warning on both sections" data-testid="import-flag" />
          </Group>
        </Radio.Group>
        <ErrorNote message={error} />
        {shown && <ImportSummary result={shown} roles={roles} onDecide={applied ? null : decide} />}
        <Group justify="end">
          <Button variant="default" onClick={onClose}>
            {applied ? 'Close' : 'Cancel'}
          </Button>
          {!applied && (
            <Button onClick={() => void run(false)} loading={busy} disabled={!preview || preview.meetings === 0} data-testid="import-timetable-apply">
              {preview ? `Apply: store ${plural(preview.meetings, 'meeting')}` : 'Apply'}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}
