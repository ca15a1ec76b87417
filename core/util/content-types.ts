/** The content types of the files Termwise writes (exports, backups): one list for every feature. */
export const CONTENT_TYPES = {
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  csv: 'text/csv; charset=utf-8',
  ics: 'text/calendar; charset=utf-8',
  sqlite: 'application/vnd.sqlite3',
} as const;
