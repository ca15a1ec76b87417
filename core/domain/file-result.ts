/** A file answer: handlers that export return this and the REST route sends it as an attachment. */
export interface FileResult {
  filename: string;
  contentType: string;
  content: Uint8Array;
}
