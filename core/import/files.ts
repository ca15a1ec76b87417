import { inWords } from '../domain/campuses';
import { z } from 'zod';
import { invalid } from '../domain/errors';
import { echo, LIMITS, parseBoundedJson, tooLarge } from '../domain/bounds';

/** An uploaded file as every transport hands it to the core. */
export const uploadedFileSchema = z.object({
  filename: z.string().min(1),
  content: z.custom<Uint8Array>((value) => value instanceof Uint8Array, 'must be the file content'),
});
export type UploadedFile = z.infer<typeof uploadedFileSchema>;

export function extensionOf(filename: string): string {
  const dot = filename.lastIndexOf('.');
  return dot < 0 ? '' : filename.slice(dot + 1).toLowerCase();
}

/** Refuses a file whose extension is not one of `allowed`, naming what is accepted. */
export function requireExtension<E extends string>(file: UploadedFile, allowed: readonly E[], what: string): E {
  const ext = extensionOf(file.filename);
  if (!(allowed as readonly string[]).includes(ext)) {
    const list = inWords(allowed.map((e) => `.${e}`));
    throw invalid(`${what} must be a ${list} file; "${echo(file.filename)}" is not`);
  }
  return ext as E;
}

/** A text file's content without a byte-order mark; invalid UTF-8 becomes U+FFFD, so the text is always well-formed. */
export function decodeText(content: Uint8Array): string {
  const text = new TextDecoder('utf-8').decode(content);
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

function recordCount(value: unknown): number {
  if (Array.isArray(value)) return value.length;
  if (typeof value === 'object' && value !== null) return Object.keys(value).length;
  return 0;
}

export function parseJsonFile(file: UploadedFile): unknown {
  const text = decodeText(file.content);
  if (text.trim() === '') throw invalid(`"${echo(file.filename)}" is empty`);
  const parsed = parseBoundedJson(text, `"${echo(file.filename)}"`);
  // Records sit at the top (an array, or an object keyed by code) or one level down ({"courses": [...]}).
  const records = Math.max(
    recordCount(parsed),
    ...(typeof parsed === 'object' && parsed !== null ? Object.values(parsed).slice(0, 100).map(recordCount) : [0]),
  );
  if (records > LIMITS.records) throw tooLarge(file.filename, `it has more than ${LIMITS.records.toLocaleString('en-US')} records`);
  return parsed;
}
