import type { FileResult } from './file-result';

/**
 * How a call to `/rpc/<operation>` travels, for both of its clients (the page served in headless
 * mode, and the desktop app connected to a campus server): its arguments as JSON, or as a form
 * when they carry a file, and a file answer read back from its attachment.
 */

/** A file as an upload sends it: its name and bytes. */
export interface FileUpload {
  filename: string;
  content: Uint8Array;
}

/** Whether a call's arguments carry a file (an upload), which then travels as a form. */
function carriesFile(args: unknown): args is Record<string, unknown> & { file: FileUpload } {
  return typeof args === 'object' && args !== null && (args as { file?: { content?: unknown } }).file?.content instanceof Uint8Array;
}

/**
 * A call's body and headers: a multipart form for an upload (the file under its own name, then each
 * plain field as text; anything else is not sent), else the arguments as JSON.
 */
export function rpcRequest(args: unknown, headers: Readonly<Record<string, string>>): { headers: Record<string, string>; body: FormData | string } {
  if (!carriesFile(args)) return { headers: { ...headers, 'content-type': 'application/json' }, body: JSON.stringify(args ?? {}) };
  const form = new FormData();
  for (const [key, value] of Object.entries(args)) {
    if (key === 'file') form.append('file', new Blob([args.file.content as BlobPart]), args.file.filename);
    else if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') form.append(key, String(value));
  }
  return { headers: { ...headers }, body: form };
}

/** A file answer (sent as an attachment) as the core returned it; null when the answer is JSON. */
export async function attachedFile(response: Response): Promise<FileResult | null> {
  const disposition = response.headers.get('content-disposition');
  if (!disposition?.startsWith('attachment')) return null;
  return {
    filename: /filename=("?)([^";]+)\1/.exec(disposition)?.[2] ?? 'download',
    contentType: response.headers.get('content-type') ?? 'application/octet-stream',
    content: new Uint8Array(await response.arrayBuffer()),
  };
}
