import { useState } from 'react';
import { Badge, Button, Card, Group, List, Progress, ScrollArea, Stack, Table, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { fileToUpload, type FileUpload, type Result } from '../api/client';
import { importData, previewImport } from '../controllers/data';
import { messageOf } from '../api/errors';
import type { ImportKind, UploadResult } from '../api/wire';
import { ErrorNote } from './ErrorNote';
import { IMPORT_KINDS } from '../../../core/domain/import-kinds';
import { inWords } from '../../../core/domain/campuses';

/** The file types each import reads (the core's one list), as a file picker names them. */
const ACCEPT = (kind: ImportKind): string[] => IMPORT_KINDS[kind].extensions.map((ext) => `.${ext}`);
const TITLES: Record<ImportKind, string> = { courses: 'Course catalog', offerings: 'Offering history', doctors: 'Doctors (faculty)' };

type Preview = Result<'import-preview'>;

/** The card's controller: the file chosen and its preview, then the import and what it did. */
function useImportFile(kind: ImportKind) {
  const [file, setFile] = useState<FileUpload | null>(null);
  const [preview, setPreview] = useState<Preview | null>(null);
  const [result, setResult] = useState<UploadResult | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const choose = async (files: File[]): Promise<void> => {
    const picked = files[0];
    if (!picked) return;
    setResult(null);
    setError(null);
    setPreview(null);
    const upload = await fileToUpload(picked);
    setFile(upload);
    try {
      setPreview(await previewImport(kind, upload));
    } catch (e) {
      setError(messageOf(e));
    }
  };

  const runImport = async (): Promise<void> => {
    if (!file) return;
    setBusy(true);
    setError(null);
    try {
      // Every screen showing what the file changes loads again on the change event.
      setResult(await importData(kind, file));
      setFile(null);
      setPreview(null);
    } catch (e) {
      setError(messageOf(e));
    } finally {
      setBusy(false);
    }
  };
  return { file, preview, result, error, setError, busy, choose, runImport };
}

/** Drop or pick a file, see what will be read, import it, and see what happened. */
export function ImportCard({ kind }: { kind: ImportKind }) {
  const card = useImportFile(kind);
  const { file, preview, result } = card;
  return (
    <Card withBorder data-testid={`import-${kind}`}>
      <Stack gap="xs">
        <Text fw={600}>{TITLES[kind]}</Text>
        <FileDrop kind={kind} onDrop={(files) => void card.choose(files)} onRefuse={card.setError} />
        {file && (
          <Text size="sm">
            Selected: <b>{file.filename}</b>
          </Text>
        )}
        {preview && <ImportPreview kind={kind} preview={preview} />}
        <Group>
          <Button
            onClick={() => void card.runImport()}
            disabled={!file || (preview?.missing.length ?? 0) > 0}
            loading={card.busy}
            data-testid={`import-${kind}-button`}
          >
            Import
          </Button>
        </Group>
        {card.busy && <Progress value={100} animated striped aria-label="Importing" />}
        <ErrorNote message={card.error} testId={`import-${kind}-error`} />
        {result && <ImportOutcome kind={kind} result={result} />}
      </Stack>
    </Card>
  );
}

/** Where a file is dropped or chosen; a file of another type is said so at once (nothing is read of it). */
function FileDrop({ kind, onDrop, onRefuse }: { kind: ImportKind; onDrop: (files: File[]) => void; onRefuse: (message: string) => void }) {
  const chooseLabel = `Choose the ${TITLES[kind].toLowerCase()} file`;
  return (
    <Dropzone
      onDrop={onDrop}
      onReject={(rejected) =>
        onRefuse(
          `"${rejected[0]?.file.name ?? 'That file'}" is not a ${inWords(ACCEPT(kind))} file: the ${TITLES[kind].toLowerCase()} is read from ${inWords(ACCEPT(kind))} (see File formats).`,
        )
      }
      accept={Object.fromEntries(
        ACCEPT(kind).map((ext) => [
          ext === '.json' ? 'application/json' : ext === '.csv' ? 'text/csv' : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
          [ext],
        ]),
      )}
      multiple={false}
      aria-label={chooseLabel}
      inputProps={{ 'aria-label': chooseLabel }}
      data-testid={`dropzone-${kind}`}
    >
      <Text size="sm" ta="center" py="sm">
        Drop a {inWords(ACCEPT(kind))} file here, or click to choose one
      </Text>
    </Dropzone>
  );
}

/** What the file will be read as: its rows, each column and the field it is read as, what is missing, the first rows. */
function ImportPreview({ kind, preview }: { kind: ImportKind; preview: Preview }) {
  return (
    <Stack gap={4} data-testid={`preview-${kind}`}>
      <Text size="xs" c="dimmed">
        {preview.total_rows.toLocaleString()} rows. Detected columns:
      </Text>
      <Group gap={4}>
        {preview.columns.map((c, i) => (
          <Badge key={i} color={c.field ? 'blue' : 'gray'} variant="light" title={c.field ? `read as ${c.field}` : 'not used'}>
            {c.header || '(blank)'}
            {c.field ? ` → ${c.field}` : ''}
          </Badge>
        ))}
      </Group>
      {preview.missing.length > 0 && <ErrorNote message={`Missing required column: ${preview.missing.join(', ')}`} />}
      <ScrollArea>
        <Table fz="xs" withTableBorder>
          <Table.Thead>
            <Table.Tr>
              {preview.columns.map((c, i) => (
                <Table.Th key={i}>{c.header}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {preview.rows.map((row, r) => (
              <Table.Tr key={r}>
                {row.map((cell, i) => (
                  <Table.Td key={i}>{cell}</Table.Td>
                ))}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </ScrollArea>
    </Stack>
  );
}

/** What an import did: imported or not, rows processed and skipped, and its warnings. */
function ImportOutcome({ kind, result }: { kind: ImportKind; result: UploadResult }) {
  return (
    <Stack gap={2} data-testid={`import-${kind}-result`}>
      <Text size="sm" role="status">
        {result.status === 'success' ? 'Imported' : 'Nothing imported'}: {result.processed} processed, {result.skipped} skipped
      </Text>
      {result.warnings.length > 0 && (
        <List size="xs" c="dimmed">
          {result.warnings.map((w, i) => (
            <List.Item key={i}>{w}</List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}
