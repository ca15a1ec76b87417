import { echo } from '../domain/bounds';

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
  skipped = 0;

  warn(message: string): void {
    // Values quoted from the file are echoed in part only: a warning never grows with a hostile cell.
    if (this.kept.length < MAX_WARNINGS) this.kept.push(echo(message, MAX_WARNING_CHARS));
    else this.dropped++;
  }

  skip(where: string, reason: string): void {
    this.skipped++;
    this.warn(`${capitalise(where)}: ${reason} — row skipped`);
  }

  result(processed: number): UploadResult {
    const warnings = [...this.kept];
    if (this.dropped > 0) warnings[MAX_WARNINGS - 1] = `…and ${this.dropped + 1} more warnings`;
    if (processed === 0 && warnings.length === 0) warnings.push('The file holds no records');
    return { status: processed > 0 ? 'success' : 'empty', processed, skipped: this.skipped, warnings };
  }
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
