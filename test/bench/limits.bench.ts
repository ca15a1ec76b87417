import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { columnLetters, XLSX_LIMITS } from '../../core/import/xlsx-limits';
import { deflateBomb, lastColumnWorkbook, workbook } from '../fixtures/hostile-workbooks';
import { startServeProcess, type ServeProcess } from '../helpers/serve-process';
import { record, timed } from './report';

/** The largest workbook Termwise accepts: every limit reached at once (cells, columns, rows as far as cells allow). */
function worstAllowedWorkbook(): { bytes: Uint8Array; rows: number } {
  const columns = XLSX_LIMITS.columns;
  const rows = Math.floor(XLSX_LIMITS.cells / columns) - 1;
  const letters = Array.from({ length: columns }, (_, i) => columnLetters(i + 1));
  const header = `<row r="1">${letters.map((l, i) => `<c r="${l}1" t="inlineStr"><is><t>${i === 0 ? 'course_code' : i === 1 ? 'year' : i === 2 ? 'total_enrolled' : `extra ${i}`}</t></is></c>`).join('')}</row>`;
  const body: string[] = [];
  for (let r = 2; r <= rows + 1; r++) {
    const cells = letters.map((l, i) =>
      i === 0 ? `<c r="${l}${r}" t="inlineStr"><is><t>CSC${100 + (r % 800)}</t></is></c>` : `<c r="${l}${r}"><v>${i === 1 ? 2000 + (r % 25) : r % 97}</v></c>`,
    );
    body.push(`<row r="${r}">${cells.join('')}</row>`);
  }
  return { bytes: workbook(header + body.join('')), rows };
}

async function upload(server: ServeProcess, path: string, name: string, bytes: Uint8Array): Promise<{ status: number; body: string }> {
  const form = new FormData();
  form.append('file', new Blob([Buffer.from(bytes)]), name);
  const response = await fetch(new URL(path.slice(1), server.url), { method: 'POST', headers: { authorization: `Bearer ${server.token}` }, body: form });
  return { status: response.status, body: (await response.text()).slice(0, 200) };
}

/** Issue 9: the worst allowed workbook and the worst refused ones, against `npm run serve` in its own process. */
export async function benchLimits(): Promise<void> {
  console.log("Upload limits (npm run serve in its own process; peak memory = the server process's VmHWM)");
  const worst = worstAllowedWorkbook();
  const refused: [string, Uint8Array][] = [
    ['2,500 rows with a cell in column XFD', lastColumnWorkbook()],
    ['200 MB deflate bomb', deflateBomb(200)],
  ];
  for (const [name, bytes, path] of [
    [`worst allowed workbook (${worst.rows.toLocaleString('en')} rows × ${XLSX_LIMITS.columns} columns)`, worst.bytes, '/data/upload/offerings'] as const,
    ...refused.map(([n, b]) => [n, b, '/data/upload/offerings'] as const),
  ]) {
    const dataDir = mkdtempSync(join(tmpdir(), 'termwise-bench-limits-'));
    const server = await startServeProcess(dataDir);
    try {
      const before = server.peakMemoryMb();
      const run = await timed(() => upload(server, path, 'book.xlsx', bytes));
      const peak = server.peakMemoryMb();
      record({
        name: `upload ${name}: answer`,
        value: run.ms / 1000,
        unit: 's',
        note: `HTTP ${run.result.status}, ${(bytes.byteLength / 1e6).toFixed(1)} MB file${run.result.status === 200 ? '' : `: ${run.result.body.slice(0, 90)}`}`,
      });
      if (peak !== null) record({ name: `upload ${name}: server peak memory`, value: peak, unit: 'MB', note: `${before?.toFixed(0) ?? '?'} MB before` });
    } finally {
      server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  }
}
