import { CoreError, invalid } from './errors';

/**
 * Bounds on what a client may send, in one place. Every parser checks its input against these
 * before doing work that grows with it.
 */
export const LIMITS = {
  /** Characters kept of one cell or field of an upload; longer ones are cut (no real cell needs more). */
  cellChars: 1_000,
  /** Characters of a client's value repeated in a message or warning. */
  echoChars: 200,
  /** Characters of a name a client gives: a campus, a run, an instructor in a roles list. */
  nameChars: 200,
  /** Nesting depth of a JSON body or JSON file. */
  jsonDepth: 64,
  /** Enrollment counts a row may state (a plausible course, not an overflow). */
  maxEnrollment: 100_000,
  /** Records one upload may hold: CSV lines, workbook rows, JSON records. */
  records: 200_000,
} as const;

/** The refusal of an upload over a limit (413), naming the file and the limit. */
export function tooLarge(filename: string, what: string): CoreError {
  return new CoreError('too_large', `"${echo(filename)}" is larger than Termwise reads: ${what}`);
}

/** A client's value, cut for repeating it in a message: quoted text never grows a reply without bound. */
export function echo(value: unknown, max: number = LIMITS.echoChars): string {
  const text = typeof value === 'string' ? value : String(value);
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length.toLocaleString('en-US')} characters)`;
}

/** Cuts a cell's text to the cell limit. */
export function capCell(text: string): string {
  return text.length <= LIMITS.cellChars ? text : text.slice(0, LIMITS.cellChars);
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** Replaces lone surrogates (which cannot be stored as UTF-8) with U+FFFD. */
export function wellFormed(text: string): string {
  return text.replace(LONE_SURROGATE, '\uFFFD');
}

// Characters XML 1.0 forbids (controls other than tab/newline/return, U+FFFE, U+FFFF) and lone surrogates.
// eslint-disable-next-line no-control-regex
const XML_INVALID = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/** The most characters an Excel cell holds. */
export const EXCEL_CELL_CHARS = 32_767;

/** Text safe to write into a spreadsheet cell: XML-clean and within the cell limit (cut with an ellipsis). */
export function xmlSafe(text: string): string {
  const clean = text.replace(XML_INVALID, '');
  return clean.length <= EXCEL_CELL_CHARS ? clean : `${clean.slice(0, EXCEL_CELL_CHARS - 1)}…`;
}

/**
 * The deepest nesting of a JSON text, found in one pass without parsing it, so that a document
 * nested 100,000 deep is refused before any recursive code walks it.
 */
export function jsonDepth(text: string, stopAt: number = Number.POSITIVE_INFINITY): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      depth++;
      if (depth > deepest) {
        deepest = depth;
        if (deepest > stopAt) return deepest;
      }
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return deepest;
}

/** JSON.parse, refusing documents nested deeper than the limit; `what` names the document in the error. */
export function parseBoundedJson(text: string, what: string): unknown {
  if (jsonDepth(text, LIMITS.jsonDepth) > LIMITS.jsonDepth) {
    throw invalid(`${what} is nested more than ${LIMITS.jsonDepth} levels deep; Termwise reads flatter JSON only`);
  }
  try {
    // Strings come back well-formed: "\ud800" escapes cannot reach the database as invalid UTF-8.
    return JSON.parse(text, (_key, value: unknown) => (typeof value === 'string' ? wellFormed(value) : value)) as unknown;
  } catch (error) {
    throw new CoreError('invalid', `${what} is not valid JSON: ${jsonMistake(error, text)}`);
  }
}

/** Where JSON text goes wrong, in words: the line and column, and the text there (never the parser's own phrasing). */
function jsonMistake(error: unknown, text: string): string {
  const message = error instanceof Error ? error.message : String(error);
  const given = /position (\d+)/.exec(message);
  const position = given ? Math.min(Number(given[1]), text.length) : text.length - text.trimStart().length;
  if (/end of JSON input/i.test(message) || position >= text.trimEnd().length) return 'it ends before it is complete (a closing ] or } or " may be missing)';
  const before = text.slice(0, position);
  const line = before.split('\n').length;
  const column = position - before.lastIndexOf('\n');
  const near = text.slice(position, position + 24).replace(/\s+/g, ' ');
  return `something other than JSON at line ${line}, column ${column}${near === '' ? '' : ` ("${echo(near, 24)}")`}`;
}
