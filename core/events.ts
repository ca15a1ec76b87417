import { EventEmitter } from 'node:events';
import type { ChangedEvent } from './domain/changes';

export interface ProgressEvent {
  type: 'progress';
  task: string;
  campus?: string;
  stage: string;
  percent: number;
}

export type CoreEvent = ProgressEvent | ChangedEvent;

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
