/** An error from the core, rebuilt in the renderer with the server's words. */
export class ApiError extends Error {
  constructor(
    message: string,
    readonly code: string,
    readonly status: number,
    readonly fields: { field: string; message: string }[] = [],
    readonly conflicts: string[] = [],
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

const STATUS_CODE: Record<number, string> = { 400: 'invalid', 401: 'unauthorized', 403: 'forbidden', 404: 'not_found', 413: 'too_large', 422: 'validation' };
const CODE_STATUS: Record<string, number> = { invalid: 400, conflict: 400, unauthorized: 401, forbidden: 403, not_found: 404, too_large: 413, validation: 422 };

export function errorFromHttp(status: number, body: { detail?: unknown; fields?: { field: string; message: string }[]; conflicts?: string[] } | null): ApiError {
  const detail = typeof body?.detail === 'string' ? body.detail : `The request failed (HTTP ${status})`;
  return new ApiError(detail, body?.conflicts ? 'conflict' : (STATUS_CODE[status] ?? 'internal'), status, body?.fields ?? [], body?.conflicts ?? []);
}

export function errorFromCore(error: { code: string; message: string; details?: { fields?: { field: string; message: string }[]; conflicts?: string[] } }): ApiError {
  return new ApiError(error.message, error.code, CODE_STATUS[error.code] ?? 500, error.details?.fields ?? [], error.details?.conflicts ?? []);
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
