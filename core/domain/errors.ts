import { fieldInWords } from './field-words';
/**
 * Errors cross every boundary as data. Inside the core they are CoreError; the REST layer
 * maps `code` to a status and `message` to `{"detail": ...}`; the renderer rebuilds them.
 */
export type CoreErrorCode =
  | 'invalid' // unusable input: bad file, missing column, unknown reference (400)
  | 'validation' // schema violation of a request body or query (422)
  | 'conflict' // a rule of the domain forbids the write, e.g. a double booking (400)
  | 'not_found' // 404
  | 'unauthorized' // 401
  | 'forbidden' // known caller, not allowed this (403)
  | 'too_large' // 413
  | 'too_many' // too many attempts (sign-in): wait before trying again (429)
  | 'busy' // another long write holds the database: try again in a moment (503)
  | 'internal'; // a fault of Termwise itself, never of the input (500)

/** The HTTP status of each error code: the one mapping the REST server and the page's client share. */
export const HTTP_STATUS: Record<CoreErrorCode, number> = {
  invalid: 400,
  conflict: 400,
  validation: 422,
  not_found: 404,
  unauthorized: 401,
  forbidden: 403,
  too_large: 413,
  too_many: 429,
  busy: 503,
  internal: 500,
};

/** The code of an HTTP error answer (400 is "invalid" unless the body lists conflicts). */
export function codeOfStatus(status: number, hasConflicts: boolean): CoreErrorCode {
  if (status === 400 && hasConflicts) return 'conflict';
  const found = (Object.keys(HTTP_STATUS) as CoreErrorCode[]).find((code) => code !== 'conflict' && HTTP_STATUS[code] === status);
  return found ?? 'internal';
}

/** The user-facing words for a fault of Termwise itself. */
export const INTERNAL_ERROR_MESSAGE = 'Termwise hit an internal error; the change was not applied.';

/** One refused field of a request: the one shape core, IPC, REST and the screens share. */
export interface FieldProblem {
  field: string;
  message: string;
}

export interface CoreErrorData {
  code: CoreErrorCode;
  message: string;
  details?: { fields?: FieldProblem[]; conflicts?: string[] } | undefined;
}

export class CoreError extends Error {
  readonly code: CoreErrorCode;
  readonly details: CoreErrorData['details'];

  constructor(code: CoreErrorCode, message: string, details?: CoreErrorData['details']) {
    super(message);
    this.name = 'CoreError';
    this.code = code;
    this.details = details;
  }

  toData(): CoreErrorData {
    return { code: this.code, message: this.message, details: this.details };
  }
}

export const invalid = (message: string): CoreError => new CoreError('invalid', message);
export const forbidden = (message: string): CoreError => new CoreError('forbidden', message);
export const notFound = (message: string): CoreError => new CoreError('not_found', message);

export function isCoreError(value: unknown): value is CoreError {
  return value instanceof CoreError;
}

/** A refusal of one field of a request (422), in the same words the schema checks use: "Not accepted — Course (course_code): message". */
export function fieldError(field: string, message: string): CoreError {
  return fieldErrors([{ field, message }]);
}

/**
 * A refusal of several fields at once (422): "Not accepted — Minutes (duration_mins): …; …", each
 * field in words and by name, each listed in `fields`. The one way to refuse input.
 */
export function fieldErrors(fields: readonly FieldProblem[]): CoreError {
  return new CoreError('validation', `Not accepted — ${fields.map((f) => `${fieldInWords(f.field)}: ${f.message}`).join('; ')}`, { fields: [...fields] });
}
