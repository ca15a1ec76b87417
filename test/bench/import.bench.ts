import { generateSample } from '../../core/sample/generate';
import { offeringsCsv, offeringsReportXlsx } from '../../core/sample/files';
import { startTestServer } from '../helpers/server';
import { record, timed } from './report';

/** Issue 2: imports of large offerings files and reading 100,000 records back. */
export async function benchImports(): Promise<void> {
  console.log('Data import');
  const big = generateSample({ copies: 52 });
  const rows = big.offerings.slice(0, 100_000);
  const csv = offeringsCsv({ ...big, offerings: rows });
  const server = await startTestServer();
  try {
    const csvRun = await timed(async () => {
      const response = await server.upload('/data/upload/offerings', 'big.csv', csv);
      return (await response.json()) as { processed: number };
    });
    record({
      name: `import ${rows.length.toLocaleString('en')}-row offerings CSV over HTTP`,
      value: csvRun.ms / 1000,
      unit: 's',
      target: 3,
      note: `${csvRun.result.processed} records`,
    });

    const reads = [];
    for (let i = 0; i < 3; i++) reads.push(await timed(async () => (await (await server.api('/data/offerings')).arrayBuffer()).byteLength));
    const read = reads.sort((a, b) => a.ms - b.ms)[1] ?? reads[0]!;
    record({
      name: 'GET /data/offerings with 100,000 records, full body received (median of 3)',
      value: read.ms / 1000,
      unit: 's',
      target: 1,
      note: `${(read.result / 1e6).toFixed(1)} MB`,
    });
    const parsed = await timed(async () => ((await (await server.api('/data/offerings')).json()) as unknown[]).length);
    record({ name: 'the same, parsed into objects by the client', value: parsed.ms / 1000, unit: 's', note: `${parsed.result} records` });
  } finally {
    await server.close();
  }

  const sections = generateSample({ copies: 7 }).sections.slice(0, 20_000);
  const xlsx = await offeringsReportXlsx(sections);
  const other = await startTestServer();
  try {
    const xlsxRun = await timed(async () => {
      const response = await other.upload('/data/upload/offerings', 'report.xlsx', xlsx);
      return (await response.json()) as { processed: number };
    });
    record({
      name: `import ${sections.length.toLocaleString('en')}-row report-style XLSX over HTTP`,
      value: xlsxRun.ms / 1000,
      unit: 's',
      target: 5,
      note: `${xlsxRun.result.processed} records, ${(xlsx.byteLength / 1e6).toFixed(1)} MB`,
    });
  } finally {
    await other.close();
  }
}
