import { EventEmitter } from 'node:events';
import type { ChangeArea, ChangedEvent } from './domain/changes';
import { mayRead, type Actor } from './domain/people';

export interface ProgressEvent {
  type: 'progress';
  task: string;
  campus?: string;
  stage: string;
  percent: number;
  /** The department whose work this is (its people alone see it). */
  department?: number;
}

export type CoreEvent = ProgressEvent | ChangedEvent;

/** The areas of one department's change that every department's plan depends on: shared rooms, instructors' one calendar. */
const SHARED_AREAS: readonly ChangeArea[] = ['timetable', 'rooms', 'doctors'];

/**
 * The event as an actor may see it, or null: a department's own events go to its people and the
 * registrar, the campus's to all. Another department's change to what is shared reaches everyone
 * else as a bare `campus` change (what was booked, and by whom, stays with those who may read it),
 * so that campus views and conflict-relevant reads stay live.
 */
export function eventFor(event: CoreEvent, actor: Actor): CoreEvent | null {
  if (event.department === undefined || mayRead(actor, event.department)) return event;
  if (event.type === 'changed' && event.areas.some((area) => SHARED_AREAS.includes(area)))
    return { type: 'changed', areas: ['campus'], ...(event.remote ? { remote: true } : {}) };
  return null;
}

/** Typed events (progress of long work, changed data); both transports forward them (IPC events, Server-Sent Events). */
export class CoreEvents {
  private readonly emitter = new EventEmitter();

  emit(event: CoreEvent): void {
    this.emitter.emit('event', event);
  }

  subscribe(listener: (event: CoreEvent) => void): () => void {
    this.emitter.on('event', listener);
    return () => this.emitter.off('event', listener);
  }
}
