import { CoreError, HTTP_STATUS, INTERNAL_ERROR_MESSAGE, type FieldProblem } from '../domain/errors';
import { echo } from '../domain/bounds';

const MAX_DETAIL_CHARS = 1_000;

export interface ErrorBody {
  detail: string;
  fields?: FieldProblem[];
  conflicts?: string[];
}

interface FrameworkError {
  statusCode?: number;
  code?: string;
  message?: string;
}

/** Any error thrown while answering a request → a status and `{"detail": ...}`; never a stack. */
export function errorResponse(error: unknown): { status: number; body: ErrorBody } {
  if (error instanceof CoreError) {
    // A message may quote what the client sent; it never grows with it.
    const body: ErrorBody = { detail: echo(error.message, MAX_DETAIL_CHARS) };
    if (error.details?.fields) body.fields = error.details.fields;
    if (error.details?.conflicts) body.conflicts = error.details.conflicts;
    return { status: HTTP_STATUS[error.code], body };
  }
  const e = (error ?? {}) as FrameworkError;
  switch (e.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
    case 'FST_FILES_LIMIT':
    case 'FST_PARTS_LIMIT':
      return { status: 413, body: { detail: 'The request is too large: uploads may be at most 25 MB, JSON bodies at most 1 MB' } };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return { status: 415, body: { detail: 'Unsupported content type: send JSON, or multipart/form-data for uploads' } };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, body: { detail: 'The request body is empty; send a JSON object' } };
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return { status: 400, body: { detail: 'Upload the file as multipart/form-data in the field "file"' } };
    default:
      break;
  }
  if (e.statusCode !== undefined && e.statusCode >= 400 && e.statusCode < 500) {
    const detail =
      e.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || /JSON/.test(e.message ?? '')
        ? `The request body is not valid JSON: ${e.message}`
        : (e.message ?? 'Bad request');
    return { status: e.statusCode, body: { detail } };
  }
  return { status: 500, body: { detail: `${INTERNAL_ERROR_MESSAGE} See the server log for details.` } };
}
