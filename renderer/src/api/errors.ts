import { codeOfStatus, HTTP_STATUS, type CoreErrorCode, type FieldProblem } from '../../../core/domain/errors';
/** An error from the core, rebuilt in the renderer with the server's words. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
    readonly fields: FieldProblem[] = [],
    readonly conflicts: string[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export function errorFromHttp(status: number, body: { detail?: unknown; fields?: FieldProblem[]; conflicts?: string[] } | null): ApiError {
  const detail = typeof body?.detail === 'string' ? body.detail : `The request failed (HTTP ${status})`;
  return new ApiError(detail, codeOfStatus(status, (body?.conflicts?.length ?? 0) > 0), status, body?.fields ?? [], body?.conflicts ?? []);
}

export function errorFromCore(error: { code: string; message: string; details?: { fields?: FieldProblem[]; conflicts?: string[] } }): ApiError {
  return new ApiError(error.message, error.code, HTTP_STATUS[error.code as CoreErrorCode] ?? 500, error.details?.fields ?? [], error.details?.conflicts ?? []);
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
