/**
 * The campuses a department plans for. Each installation configures its own (campuses.json in
 * the data folder); these two are the defaults and the only campus names written in the code.
 */
export interface CampusSpec {
  /** The spelling Termwise stores and shows. */
  name: string;
  /** Other spellings that files use for it (case is ignored). */
  aliases: readonly string[];
}

import { fieldError } from './errors';

/** A stored campus name: one of the configured names. */
export type Campus = string;

export const DEFAULT_CAMPUSES: readonly CampusSpec[] = [
  { name: 'Beirut', aliases: ['bey', 'bei', 'brt'] },
  { name: 'Byblos', aliases: ['byb', 'jbeil', 'jbail'] },
];

export const CAMPUS_BOUNDS = { campuses: 20, nameLength: 60, aliases: 20 } as const;

/** Spellings this long or longer are also found inside longer text ("Beirut campus"). */
const FOUND_INSIDE_FROM = 4;

/** "A", "A or B", "A, B or C". */
export function inWords(names: readonly string[], conjunction = 'or'): string {
  if (names.length <= 1) return names[0] ?? '';
  return `${names.slice(0, -1).join(', ')} ${conjunction} ${names[names.length - 1]}`;
}

/** The configured campuses: their names, and how loose spellings in files map onto them. */
export class CampusList {
  readonly names: readonly Campus[];
  private readonly exact = new Map<string, Campus>();
  private readonly inside: [string, Campus][] = [];

  constructor(readonly specs: readonly CampusSpec[]) {
    const problem = campusSpecProblem(specs);
    if (problem) throw new Error(problem);
    this.names = specs.map((s) => s.name.trim());
    for (const spec of specs) {
      const name = spec.name.trim();
      for (const spelling of [name, ...spec.aliases]) {
        const key = spelling.trim().toLowerCase();
        if (key === '') continue;
        if (!this.exact.has(key)) this.exact.set(key, name);
        if (key.length >= FOUND_INSIDE_FROM) this.inside.push([key, name]);
      }
    }
  }

  /** The campus a cell or form value names; null when it names none. Linear in the text. */
  normalise(value: string): Campus | null {
    const text = value.trim().toLowerCase();
    if (text === '') return null;
    const exact = this.exact.get(text);
    if (exact) return exact;
    if (text.length > 200) return null;
    for (const [spelling, name] of this.inside) if (text.includes(spelling)) return name;
    return null;
  }

  /** The campus a request names (any spelling `normalise` knows), for `field`; a 422-style validation error when it names none. */
  require(value: string, field: string): Campus {
    const campus = this.normalise(value);
    if (campus) return campus;
    const message = `must be ${this.describe()}`;
    throw fieldError(field, message);
  }

  /** The campus records go under when a file names none: the first configured. */
  get fallback(): Campus {
    return this.names[0] as Campus;
  }

  /** The campus names in words, for messages: "Beirut or Byblos". */
  describe(): string {
    return inWords(this.names);
  }
}

/** What is wrong with a campus configuration, in words; null when it is usable. */
export function campusSpecProblem(specs: readonly CampusSpec[]): string | null {
  if (specs.length === 0) return 'at least one campus is needed';
  if (specs.length > CAMPUS_BOUNDS.campuses) return `at most ${CAMPUS_BOUNDS.campuses} campuses are supported`;
  const seen = new Map<string, string>();
  for (const spec of specs) {
    const name = spec.name.trim();
    if (name === '' || name.length > CAMPUS_BOUNDS.nameLength) return `a campus name must have 1–${CAMPUS_BOUNDS.nameLength} characters`;
    if (spec.aliases.length > CAMPUS_BOUNDS.aliases) return `${name}: at most ${CAMPUS_BOUNDS.aliases} other spellings`;
    for (const spelling of [name, ...spec.aliases]) {
      const key = spelling.trim().toLowerCase();
      if (key.length > CAMPUS_BOUNDS.nameLength) return `${name}: a spelling must have at most ${CAMPUS_BOUNDS.nameLength} characters`;
      const owner = seen.get(key);
      if (owner !== undefined && owner !== name) return `"${spelling}" names both ${owner} and ${name}`;
      if (owner === undefined && key !== '') seen.set(key, name);
    }
  }
  if (new Set(specs.map((s) => s.name.trim().toLowerCase())).size !== specs.length) return 'two campuses have the same name';
  return null;
}
