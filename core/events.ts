import { EventEmitter } from 'node:events';

export interface ProgressEvent {
  type: 'progress';
  task: string;
  campus?: string;
  stage: string;
  percent: number;
}

export type CoreEvent = ProgressEvent;

/** Typed progress events; both transports forward them (IPC events, Server-Sent Events). */
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
