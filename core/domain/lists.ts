/**
 * List columns are stored as JSON-array text (prerequisites, allowed courses, types, reasons,
 * feature names). Stored data may come from a restored backup: reading it never throws; text
 * that is not a JSON array reads as an empty list.
 */
export function storedList(text: string | null | undefined): string[] {
  if (!text) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.map(String) : [];
  } catch {
    return [];
  }
}
