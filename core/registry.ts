import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import './input-words';
import { CoreError, fieldErrors, forbidden, type FieldProblem } from './domain/errors';
import { REGISTRAR, type Actor } from './domain/people';
import type { Caller, CoreContext } from './context';
import type { ChangeArea } from './domain/changes';
import type { CampusList } from './domain/campuses';
import { storeRefusal } from './db/errors';

/** What a handler writes: fixed areas, or areas that depend on its input (a dry run writes nothing). */
export type Writes<I> = readonly ChangeArea[] | ((input: I) => readonly ChangeArea[]);

/**
 * Who may call a handler: any member of the department it acts in (viewers read, schedulers and
 * the registrar write), or the registrar alone (the campus: departments, people, the room pool,
 * the whole database), or anyone about themselves (their personal tokens: a viewer keeps tokens too).
 */
export type HandlerAccess = 'member' | 'registrar' | 'self';

/** One handler: its input schema (validated once, here), the domain function it runs and what it writes. */
export interface Handler<S extends z.ZodType, R> {
  input: S;
  summary: string;
  run: (ctx: CoreContext, input: z.output<S>) => R;
  writes: Writes<z.output<S>>;
  access: HandlerAccess;
}

export interface AnyHandler {
  input: z.ZodType;
  summary: string;
  run: (ctx: CoreContext, input: never) => unknown;
  writes: Writes<never>;
  access: HandlerAccess;
}

export type HandlerMap = Record<string, AnyHandler>;

export function handler<S extends z.ZodType, R>(
  input: S,
  summary: string,
  run: (ctx: CoreContext, input: z.output<S>) => R,
  options: { writes?: Writes<z.output<S>>; access?: HandlerAccess } = {},
): Handler<S, R> {
  return { input, summary, run, writes: options.writes ?? [], access: options.access ?? 'member' };
}

/** Declares a feature's handlers; the type keeps each name's input and output. */
export function defineHandlers<const T extends HandlerMap>(handlers: T): T {
  return handlers;
}

/** Declares a feature's operations of the desktop app's own, for the table only its calls reach (core/handlers.ts). */
export function defineDesktopOnlyHandlers<const T extends HandlerMap>(handlers: T): T {
  return handlers;
}

/** Merges feature maps into one, refusing two handlers with the same name. */
export function mergeHandlers<const T extends readonly HandlerMap[]>(...maps: T): UnionToIntersection<T[number]> {
  const merged: HandlerMap = {};
  for (const map of maps) {
    for (const [name, h] of Object.entries(map)) {
      if (name in merged) throw new Error(`Handler "${name}" is declared twice`);
      merged[name] = h;
    }
  }
  return merged as UnionToIntersection<T[number]>;
}

type UnionToIntersection<U> = (U extends unknown ? (k: U) => void : never) extends (k: infer I) => void ? I : never;

export type InputOf<H> = H extends Handler<infer S, unknown> ? z.input<S> : H extends AnyHandler ? z.input<H['input']> : never;
export type OutputOf<H> = H extends { run: (...args: never[]) => infer R } ? Awaited<R> : never;

export function fieldProblems(error: z.ZodError): FieldProblem[] {
  return error.issues.map((issue) => ({
    field: issue.path.length > 0 ? issue.path.map(String).join('.') : '(body)',
    message: issue.message,
  }));
}

export function validationError(error: z.ZodError): CoreError {
  return fieldErrors(fieldProblems(error));
}

/**
 * What a call would write, known before the rest of its input is read: a handler's fixed areas, or,
 * for one whose writes depend on its input, what its `dry_run` flag says (its default when not sent;
 * a flag that cannot be read counts as a write). An input of several shapes (a union) is read whole
 * for it, and one that cannot be read counts as a write.
 */
function writesBeforeInput(h: AnyHandler, args: unknown): readonly ChangeArea[] {
  if (typeof h.writes !== 'function') return h.writes;
  const writes = h.writes as (input: unknown) => readonly ChangeArea[];
  if (!(h.input instanceof z.ZodObject)) {
    const whole = h.input.safeParse(args ?? {});
    return writes(whole.success ? whole.data : { dry_run: false });
  }
  const flag = (h.input.shape as Record<string, z.ZodType | undefined>).dry_run;
  const given = typeof args === 'object' && args !== null ? (args as { dry_run?: unknown }).dry_run : undefined;
  const read = flag?.safeParse(given);
  return writes({ dry_run: read?.success === true ? read.data : false });
}

const viewerRefusal = (): CoreError => forbidden("A viewer reads the department's plans; changing them is for its schedulers");

/**
 * The operations a caller reaches: the served table, and for the desktop app its own table too. A
 * desktop-only name asked of a server is refused as unknown there, saying where it works.
 */
function handlerFor(tables: OperationTables, name: string, caller: Caller): AnyHandler {
  const own = (table: HandlerMap): AnyHandler | undefined => (Object.prototype.hasOwnProperty.call(table, name) ? table[name] : undefined);
  const h = own(tables.served) ?? (caller === 'desktop' ? own(tables.desktopOnly) : undefined);
  if (h) return h;
  if (own(tables.desktopOnly)) throw new CoreError('not_found', `"${name}" works on the desktop app's own copy of a campus term: a server does not serve it`);
  throw new CoreError('not_found', `Unknown operation "${name}"`);
}

/**
 * The operation, once its caller may make it as far as is known before its input is read: the
 * registrar's operations are the registrar's, a viewer's write is refused whatever it carries (by
 * what is known of its input: `args` so far, nothing for an upload whose form is not read yet).
 * Transports ask this before they read a body, the runner again with the input.
 */
export function refuseBeforeInput(tables: OperationTables, name: string, args: unknown, call: Call): AnyHandler {
  const h = handlerFor(tables, name, call.caller);
  const actor = call.actor ?? REGISTRAR;
  if (h.access === 'registrar' && actor.role !== 'registrar') throw forbidden('Only the registrar may do this');
  if (actor.role === 'viewer' && h.access !== 'self' && writesBeforeInput(h, args).length > 0) throw viewerRefusal();
  return h;
}

/** Who makes a call, and the department they ask to act in (the registrar chooses; others have theirs). */
export interface Call {
  caller: Caller;
  /** Who the call acts for; the registrar when not given (the laptop, the server's own token). */
  actor?: Actor;
  /** The department asked for (its id or code); the caller's own, or the first, when not given. */
  department?: string | undefined;
}

/** Where a call acts: its department and that department's campuses. */
export interface CallScope {
  department: number;
  campuses: CampusList;
}

/**
 * How the runner learns a call's scope from who makes it and the department they ask for (the
 * departments feature decides: the composition root passes it in, so the runner imports no feature).
 */
export type ScopeOf = (ctx: CoreContext, actor: Actor, asked: string | undefined) => Promise<CallScope>;

/** The operations every caller reaches, and those only the desktop app's calls reach (a server never mounts them). */
export interface OperationTables {
  served: HandlerMap;
  desktopOnly: HandlerMap;
}

/** What the runner runs: the operation tables, and how a call's department is decided. */
export interface Operations extends OperationTables {
  scopeOf: ScopeOf;
}

/**
 * The one runner every transport calls: validates the input, decides the department the call acts
 * in and whether its caller may make it, runs the handler and announces what a write changed.
 */
export async function runHandler(ctx: CoreContext, operations: Operations, name: string, args: unknown, call: Call = { caller: 'desktop' }): Promise<unknown> {
  const { scopeOf } = operations;
  const h = refuseBeforeInput(operations, name, args, call);
  const actor = call.actor ?? REGISTRAR;
  // The department comes before the input: asking for one the caller may not act in is refused whatever it carries.
  let scope: CallScope;
  try {
    scope = await scopeOf(ctx, actor, call.department);
  } catch (error) {
    throw storeRefusal(error) ?? error;
  }
  const { department } = scope;
  const parsed = h.input.safeParse(args ?? {});
  if (!parsed.success) throw validationError(parsed.error);
  const areas = typeof h.writes === 'function' ? (h.writes as (input: unknown) => readonly ChangeArea[])(parsed.data) : h.writes;
  if (areas.length > 0 && actor.role === 'viewer' && h.access !== 'self') throw viewerRefusal();
  let result: unknown;
  try {
    result = await (h.run as (ctx: CoreContext, input: unknown) => unknown)(
      { ...ctx, caller: call.caller, actor, department, campuses: scope.campuses, batch: randomUUID() },
      parsed.data,
    );
  } catch (error) {
    // The store's own refusals (busy past the wait, a value it cannot hold) are answered in words.
    throw storeRefusal(error) ?? error;
  }
  // A successful write announces what it changed, so every open screen (IPC or /events) refreshes itself.
  if (areas.length > 0) ctx.events.emit({ type: 'changed', areas: [...areas], department });
  return result;
}
