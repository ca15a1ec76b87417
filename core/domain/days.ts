/** Day letters of a weekly pattern, Monday first: M T W R F S U. */
export const DAY_LETTERS = ['M', 'T', 'W', 'R', 'F', 'S', 'U'] as const;
export type DayLetter = (typeof DAY_LETTERS)[number];

/** The day letter of each weekday as Date.getUTCDay() numbers them (0 = Sunday). */
export const WEEKDAY_LETTERS = ['U', 'M', 'T', 'W', 'R', 'F', 'S'] as const;

export const DAY_NAMES: Record<DayLetter, string> = {
  M: 'Monday',
  T: 'Tuesday',
  W: 'Wednesday',
  R: 'Thursday',
  F: 'Friday',
  S: 'Saturday',
  U: 'Sunday',
};

const STRICT_PATTERN = /^[MTWRFSU]+$/;

/** A strict pattern: one or more distinct letters of M T W R F S U. Returns null when invalid. */
export function parseDayPattern(value: string): DayLetter[] | null {
  const text = value.trim().toUpperCase();
  if (!STRICT_PATTERN.test(text)) return null;
  const letters = [...text] as DayLetter[];
  if (new Set(letters).size !== letters.length) return null;
  return letters;
}

/** Canonical spelling of a pattern: letters in weekday order (e.g. "WM" → "MW"). */
export function formatDayPattern(letters: readonly DayLetter[]): string {
  return DAY_LETTERS.filter((d) => letters.includes(d)).join('');
}

const DAY_WORDS: [RegExp, DayLetter][] = [
  [/^(mon|monday|mo)$/, 'M'],
  [/^(tue|tues|tuesday|tu)$/, 'T'],
  [/^(wed|weds|wednesday|we)$/, 'W'],
  [/^(thu|thur|thurs|thursday|th|r)$/, 'R'],
  [/^(fri|friday|fr)$/, 'F'],
  [/^(sat|saturday|sa)$/, 'S'],
  [/^(sun|sunday|su)$/, 'U'],
];

/**
 * Lenient reading of availability days as people type them in spreadsheets:
 * "MWF", "TR", "TTh", "Mon, Wed", "Monday-Friday" ranges are not guessed. Null when unreadable.
 */
export function readDaysLeniently(value: string): string | null {
  const text = value.trim();
  if (text === '') return null;
  const strict = parseDayPattern(text);
  if (strict) return formatDayPattern(strict);
  const tokens = text
    .toLowerCase()
    .split(/[\s,;/|&+-]+/)
    .filter(Boolean);
  const letters = new Set<DayLetter>();
  for (const token of tokens) {
    const word = DAY_WORDS.find(([re]) => re.test(token));
    if (word) {
      letters.add(word[1]);
      continue;
    }
    // Compact forms such as "TTh" or "MWTh".
    const compact = token.toUpperCase().replace(/TH/g, 'R').replace(/SU/g, 'U');
    const parsed = parseDayPattern(compact);
    if (!parsed) return null;
    for (const d of parsed) letters.add(d);
  }
  return letters.size > 0 ? formatDayPattern([...letters]) : null;
}

export function sharesDay(a: string, b: string): boolean {
  for (const d of a) if (b.includes(d)) return true;
  return false;
}

/** The usual weekly patterns: MWF classes in 60-minute slots, TR classes in 90-minute slots. */
export const USUAL_PATTERNS = [
  { day: 'MWF', duration: 60 },
  { day: 'TR', duration: 90 },
] as const;

/** The usual pattern and length for a class starting on a day (Tuesday → TR 90); other days meet alone, 60 minutes. */
export function usualMeetingForDay(letter: string): { day: string; duration: number } {
  const usual = USUAL_PATTERNS.find((p) => p.day.includes(letter));
  return usual ? { day: usual.day, duration: usual.duration } : { day: letter, duration: 60 };
}
