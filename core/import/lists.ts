import { cellText } from './table';

/**
 * A cell that holds a list: an array (JSON uploads), a JSON-array string (`["CSC201","CSC202"]`)
 * or text separated by any of `separators` (and, with `andWord`, the word "and"). Items come back
 * trimmed, quotes removed, blanks dropped; null when the cell is blank. Splitting is by single
 * characters, then trimming: linear on any input (no `\s*,\s*` backtracking over long spaces).
 */
export function readListCell(value: unknown, options: { separators: string; andWord?: boolean }): string[] | null {
  let items: unknown[];
  if (Array.isArray(value)) items = value;
  else {
    const text = cellText(value);
    if (text === '') return null;
    if (text.startsWith('[')) {
      try {
        const parsed: unknown = JSON.parse(text);
        items = Array.isArray(parsed) ? parsed : [text];
      } catch {
        items = splitOn(text.slice(1, text.endsWith(']') ? -1 : undefined), ',');
      }
    } else {
      items = splitOn(text, options.separators);
      if (options.andWord) items = items.flatMap((item) => String(item).split(/\band\b/i));
    }
  }
  return items.map((item) => (typeof item === 'number' ? String(item) : cellText(item)).replace(/["']/g, '').trim()).filter((item) => item !== '');
}

function splitOn(text: string, separators: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    if (separators.includes(text.charAt(i))) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts;
}
