/**
 * Course codes: upper-case letters then the number, no space ("csc 310" → "CSC310"), optional
 * suffix letters ("CSC498HN"). A cross-listed course joins its codes with "/" ("CSC463/BIF463").
 */
const SINGLE = /^([A-Za-z]{2,6})\s*[-_]?\s*(\d{2,4})([A-Za-z]{0,3})$/;

export interface CodeParts {
  prefix: string;
  number: string;
}

/** No course code is longer than this; longer text is not matched at all (keeps matching linear). */
export const MAX_CODE_CHARS = 64;

export function normaliseCourseCode(value: unknown): string | null {
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const text = String(value).trim();
  if (text.length > MAX_CODE_CHARS) return null;
  const codes: string[] = [];
  for (const part of text.split('/')) {
    const m = SINGLE.exec(part.trim());
    if (!m) return null;
    codes.push(`${m[1]?.toUpperCase()}${m[2]}${m[3]?.toUpperCase()}`);
  }
  return codes.length > 0 ? codes.join('/') : null;
}

/** Every single code of a (possibly cross-listed) code. */
export function codeParts(code: string): CodeParts[] {
  return code.split('/').map((single) => {
    const m = /^([A-Z]+)(\d+[A-Z]*)$/.exec(single);
    return { prefix: m?.[1] ?? single, number: m?.[2] ?? '' };
  });
}

/** Prefix and number of the course's first code, and its level: the number's first digit. */
export function describeCode(code: string): CodeParts & { level: number } {
  const first = codeParts(code)[0] ?? { prefix: code, number: '' };
  const level = Number(first.number.charAt(0));
  return { ...first, level: Number.isFinite(level) ? level : 0 };
}

export function codePrefixes(code: string): string[] {
  return [...new Set(codeParts(code).map((p) => p.prefix))];
}
