import { echo } from '../domain/bounds';
import { invalid } from '../domain/errors';

/** What every upload answers: status, how many records were upserted, skipped, and why. */
export interface UploadResult {
  status: 'success' | 'empty';
  processed: number;
  skipped: number;
  warnings: string[];
}

export const MAX_WARNINGS = 50;
/** Longest warning kept: room for a message and a value of up to 200 characters. */
export const MAX_WARNING_CHARS = 400;

/** Collects row problems; keeps the first 50 and counts the rest. */
export class ImportLog {
  private readonly kept: string[] = [];
  private dropped = 0;
  /** Why rows were skipped: per kind of reason (values quoted from the file left out), how many and the first. */
  private readonly reasons = new Map<string, { count: number; first: string }>();
  skipped = 0;

  warn(message: string): void {
    // Values quoted from the file are echoed in part only: a warning never grows with a hostile cell.
    if (this.kept.length < MAX_WARNINGS) this.kept.push(echo(message, MAX_WARNING_CHARS));
    else this.dropped++;
  }

  skip(where: string, reason: string): void {
    this.skipped++;
    this.warn(`${capitalise(where)}: ${reason} — row skipped`);
    const kind = reason.replace(/"[^"]*"/g, '"…"');
    const seen = this.reasons.get(kind);
    if (seen) seen.count++;
    else if (this.reasons.size < MAX_WARNINGS) this.reasons.set(kind, { count: 1, first: `${where}: ${reason}` });
  }

  /**
   * The answer to an upload that wrote `processed` records. A file whose every row was skipped is
   * refused (400) naming why, most frequent reason first: nothing was imported, and a 200 with
   * "0 processed" reads as success to a script.
   */
  result(processed: number): UploadResult {
    if (processed === 0 && this.skipped > 0) throw invalid(nothingImported(this.skipped, [...this.reasons.values()]));
    const warnings = [...this.kept];
    if (this.dropped > 0) warnings[MAX_WARNINGS - 1] = `…and ${this.dropped + 1} more warnings`;
    if (processed === 0 && warnings.length === 0) warnings.push('The file holds no records');
    return { status: processed > 0 ? 'success' : 'empty', processed, skipped: this.skipped, warnings };
  }
}

function nothingImported(skipped: number, reasons: { count: number; first: string }[]): string {
  const rows = skipped === 1 ? 'its one row was' : `all ${skipped.toLocaleString('en-US')} rows were`;
  if (reasons.length === 1) return echo(`Nothing was imported: ${rows} skipped for the same reason (${reasons[0]?.first})`, MAX_WARNING_CHARS);
  const top = [...reasons].sort((a, b) => b.count - a.count).slice(0, 3);
  const named = top.map((r) => `${r.count.toLocaleString('en-US')} × ${echo(r.first, MAX_WARNING_CHARS)}`).join('; ');
  return `Nothing was imported: ${rows} skipped (${named}${reasons.length > top.length ? '; and other reasons' : ''})`;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
