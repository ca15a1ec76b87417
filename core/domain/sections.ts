/** Section numbers are short digit strings ("1", "12", "0301"); "1e30" or "99999999" are names, not numbers. */
const SECTION_NUMBER = /^\d{1,4}$/;

/** New section names continue after the course's existing numeric sections ("1", "2" → "3"). */
export function nextSectionNames(existing: readonly string[], count: number): string[] {
  const taken = new Set(existing.map((s) => s.trim().toLowerCase()));
  const numbers = existing
    .map((s) => s.trim())
    .filter((s) => SECTION_NUMBER.test(s))
    .map(Number)
    .filter((n) => n > 0);
  let next = numbers.reduce((max, n) => Math.max(max, n), 0) + 1;
  const names: string[] = [];
  while (names.length < count) {
    if (!taken.has(String(next))) names.push(String(next));
    next++;
  }
  return names;
}
