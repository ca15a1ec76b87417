import { EventEmitter } from 'node:events';
import type { ChangedEvent } from './domain/changes';
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

/** Whether an event may be shown to an actor: a department's own events to its people and the registrar; the campus's to all. */
export function eventVisibleTo(event: CoreEvent, actor: Actor): boolean {
  return event.department === undefined || mayRead(actor, event.department);
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
