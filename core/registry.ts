import { type z } from 'zod';
import { CoreError, fieldErrors, type FieldProblem } from './domain/errors';
import type { Caller, CoreContext } from './context';
import type { ChangeArea } from './domain/changes';
import { storeRefusal } from './db/errors';

/** What a handler writes: fixed areas, or areas that depend on its input (a dry run writes nothing). */
export type Writes<I> = readonly ChangeArea[] | ((input: I) => readonly ChangeArea[]);

/** One handler: its input schema (validated once, here), the domain function it runs and what it writes. */
export interface Handler<S extends z.ZodType, R> {
  input: S;
  summary: string;
  run: (ctx: CoreContext, input: z.output<S>) => R;
  writes: Writes<z.output<S>>;
}

export interface AnyHandler {
  input: z.ZodType;
  summary: string;
  run: (ctx: CoreContext, input: never) => unknown;
  writes: Writes<never>;
}

export type HandlerMap = Record<string, AnyHandler>;

export function handler<S extends z.ZodType, R>(
  input: S,
  summary: string,
  run: (ctx: CoreContext, input: z.output<S>) => R,
  options: { writes?: Writes<z.output<S>> } = {},
): Handler<S, R> {
  return { input, summary, run, writes: options.writes ?? [] };
}

/** Declares a feature's handlers; the type keeps each name's input and output. */
export function defineHandlers<const T extends HandlerMap>(handlers: T): T {
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

/** The one runner every transport calls; `caller` says who is asking. */
export async function runHandler(ctx: CoreContext, handlers: HandlerMap, name: string, args: unknown, caller: Caller = 'desktop'): Promise<unknown> {
  const h = Object.prototype.hasOwnProperty.call(handlers, name) ? handlers[name] : undefined;
  if (!h) throw new CoreError('not_found', `Unknown operation "${name}"`);
  const parsed = h.input.safeParse(args ?? {});
  if (!parsed.success) throw validationError(parsed.error);
  let result: unknown;
  try {
    result = await (h.run as (ctx: CoreContext, input: unknown) => unknown)(caller === ctx.caller ? ctx : { ...ctx, caller }, parsed.data);
  } catch (error) {
    // The store's own refusals (busy past the wait, a value it cannot hold) are answered in words.
    throw storeRefusal(error) ?? error;
  }
  // A successful write announces what it changed, so every open screen (IPC or /events) refreshes itself.
  const areas = typeof h.writes === 'function' ? (h.writes as (input: unknown) => readonly ChangeArea[])(parsed.data) : h.writes;
  if (areas.length > 0) ctx.events.emit({ type: 'changed', areas: [...areas] });
  return result;
}
