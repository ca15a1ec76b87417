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

interface ImportTimetableProps {
  opened: boolean;
  term: Term;
  onClose: () => void;
  onApplied: (terms: Term[]) => void;
}

/**
 * The dialog's controller: the file, where its rows go (the term on screen, a campus for its rooms),
 * the clash policy and the roles staff decide; each choice previews again by a dry run, then Apply
 * stores it. A dialog opened again starts afresh.
 */
function useListingImport({ opened, term, onApplied }: ImportTimetableProps) {
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
  const choosePolicy = (next: 'skip' | 'flag'): void => {
    setPolicy(next);
    if (preview && !applied) void run(true, file, roles, next);
  };
  return { file, intoShownTerm, setIntoShownTerm, campus, setCampus, policy, choosePolicy, roles, preview, applied, busy, error, run, choose, decide };
}
type ListingImport = ReturnType<typeof useListingImport>;

/**
 * "Import timetable…": a registrar's listing (CSV or XLSX), previewed by a dry run — what will be
 * stored, created, grouped and refused — with the instructor roles and the clash policy to decide,
 * then applied in one go.
 */
export function ImportTimetableDialog(props: ImportTimetableProps) {
  const listing = useListingImport(props);
  const { preview, applied } = listing;
  const shown = applied ?? preview;
  return (
    <Modal opened={props.opened} onClose={props.onClose} title="Import a timetable" size="xl">
      <Stack gap="sm" data-testid="import-timetable">
        <Text size="sm" c="dimmed">
          A registrar's section listing, one row per meeting (CSV or XLSX). Nothing is stored until you apply the preview.
        </Text>
        <ListingChoices listing={listing} term={props.term} />
        <Radio.Group label="Meetings that still clash" value={listing.policy} onChange={(value) => listing.choosePolicy(value === 'flag' ? 'flag' : 'skip')}>
          <Group mt={4}>
            <Radio value="skip" label="Leave them out (listed below)" />
            <Radio value="flag" label="Store them with a warning on both sections" data-testid="import-flag" />
          </Group>
        </Radio.Group>
        <ErrorNote message={listing.error} />
        {shown && <ImportSummary result={shown} roles={listing.roles} onDecide={applied ? null : listing.decide} />}
        <Group justify="end">
          <Button variant="default" onClick={props.onClose}>
            {applied ? 'Close' : 'Cancel'}
          </Button>
          {!applied && (
            <Button
              onClick={() => void listing.run(false)}
              loading={listing.busy}
              disabled={!preview || preview.meetings === 0}
              data-testid="import-timetable-apply"
            >
              {preview ? `Apply: store ${plural(preview.meetings, 'meeting')}` : 'Apply'}
            </Button>
          )}
        </Group>
      </Stack>
    </Modal>
  );
}

/** The file, and where its rows go: every row into the term on screen, and the campus of its rooms (where there are several). */
function ListingChoices({ listing, term }: { listing: ListingImport; term: Term }) {
  const campuses = useCampusList();
  return (
    <Group>
      <FileButton onChange={(f) => void listing.choose(f)} accept=".csv,.xlsx">
        {(props) => (
          <Button {...props} variant="default" data-testid="import-timetable-pick">
            {listing.file ? `Another file… (${listing.file.filename})` : 'Choose file…'}
          </Button>
        )}
      </FileButton>
      <Checkbox
        label={`Put every row in ${termLabel(term)}`}
        checked={listing.intoShownTerm}
        onChange={(e) => listing.setIntoShownTerm(e.currentTarget.checked)}
      />
      {campuses.length > 1 && (
        <Select
          placeholder="Rooms' campus (default)"
          clearable
          data={campuses}
          value={listing.campus}
          onChange={listing.setCampus}
          w={200}
          aria-label="Campus of the file's rooms"
        />
      )}
    </Group>
  );
}
