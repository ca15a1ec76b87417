/**
 * The files each import reads: the one list of accepted extensions, used by the services, the
 * preview and the Data screen's import cards.
 */
export const IMPORT_KINDS = {
  courses: { extensions: ['json'], label: 'The courses file' },
  offerings: { extensions: ['csv', 'xlsx'], label: 'The offerings file' },
  doctors: { extensions: ['json', 'csv', 'xlsx'], label: 'The doctors file' },
} as const satisfies Record<string, { extensions: readonly string[]; label: string }>;
export type ImportKind = keyof typeof IMPORT_KINDS;
