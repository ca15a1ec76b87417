import type { CoreEvents } from '../events';
import type { Department } from './repo';

/** How long a department's row is kept at most, should a change announced by another process be missed. */
const KEEP_MS = 5_000;
/** Names kept at most (a registrar's header names any text: the answers to unknown ones are not hoarded). */
const MAX_KEPT = 500;

interface Kept {
  rows: Map<string, { department: Department | undefined; until: number }>;
  /** Raised by every announced change to departments: a read begun before one is not kept. */
  generation: number;
}

const byCore = new WeakMap<CoreEvents, Kept>();

function keptFor(events: CoreEvents): Kept {
  let kept = byCore.get(events);
  if (!kept) {
    const made: Kept = { rows: new Map(), generation: 0 };
    events.subscribe((event) => {
      if (event.type !== 'changed' || !event.areas.includes('departments')) return;
      made.generation++;
      made.rows.clear();
    });
    byCore.set(events, made);
    kept = made;
  }
  return kept;
}

/**
 * A department as a call names it (by id, or by the code a registrar gives), which every call reads:
 * kept per process until a change to the departments is announced (by this process, or by another
 * on the same store through its change messages), and for a few seconds at most.
 */
export async function keptDepartment(events: CoreEvents, key: string, read: () => Promise<Department | undefined>): Promise<Department | undefined> {
  const kept = keptFor(events);
  const now = Date.now();
  const hit = kept.rows.get(key);
  if (hit && hit.until > now) return hit.department;
  const generation = kept.generation;
  const department = await read();
  if (kept.generation !== generation) return department;
  if (kept.rows.size >= MAX_KEPT) kept.rows.clear();
  kept.rows.set(key, { department, until: now + KEEP_MS });
  return department;
}
