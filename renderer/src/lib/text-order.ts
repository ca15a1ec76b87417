/**
 * How the screens order text, as String#localeCompare does, with each collator made once: a
 * localeCompare call with options builds one on every comparison, and sorting a term's meetings
 * compares thousands of times.
 */
const plain = new Intl.Collator();
const numbered = new Intl.Collator('en', { numeric: true });

/** As a.localeCompare(b). */
export const byText = (a: string, b: string): number => plain.compare(a, b);
/** Numbers within the text read as numbers ("Room 9" before "Room 10"), as a.localeCompare(b, 'en', { numeric: true }). */
export const byNumberedText = (a: string, b: string): number => numbered.compare(a, b);
