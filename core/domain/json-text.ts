/**
 * A result already serialised as JSON by SQLite, for large lists: building 100,000 JavaScript
 * objects only to stringify them again is the slow part. REST sends the text as the body;
 * the renderer's client parses it. `T` records what the text decodes to.
 */
export interface JsonText<T> {
  readonly jsonText: string;
  /** Phantom: never set, only carries the decoded type. */
  readonly decodesTo?: T;
}

export function jsonText<T>(text: string): JsonText<T> {
  return { jsonText: text };
}

export function isJsonText(value: unknown): value is JsonText<unknown> {
  return typeof value === 'object' && value !== null && typeof (value as { jsonText?: unknown }).jsonText === 'string';
}
