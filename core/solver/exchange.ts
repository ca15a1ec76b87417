import { receiveMessageOnPort, type MessagePort } from 'node:worker_threads';
import type { Assignment } from './model';
import type { SolveOptions } from './solve';

/**
 * How the threads of a portfolio share their best timetables: at the end of each annealing round a
 * thread posts its best to every other thread and takes the best of theirs, so that its next round
 * starts from the best any thread has. With a move budget a thread waits for the others' same
 * round (the answer then depends on the seed alone); with a wall-clock budget it takes what they
 * posted last and never waits.
 */
export interface ExchangeLinks {
  /** This thread's index in the portfolio. */
  index: number;
  /** A port to each other thread, in thread order (this thread left out). */
  peers: MessagePort[];
  /** Int32 per thread: how often it posted (or finished); then per thread, 1 once it has finished. */
  board: SharedArrayBuffer;
  /** Whether a thread waits for the others' same round (a move budget) rather than take what is there. */
  waitForRound: boolean;
}

interface Posted {
  round: number;
  cost: number;
  assignment: Assignment;
}

/** Longest sleep between looks at the ports while waiting for a peer's round. */
const NAP_MS = 50;

/** The board of a portfolio of `threads` threads (see ExchangeLinks.board). */
export function exchangeBoard(threads: number): SharedArrayBuffer {
  return new SharedArrayBuffer(Int32Array.BYTES_PER_ELEMENT * 2 * threads);
}

/** The thread's side of the exchange, as SolveOptions.exchange; `cancelled` ends a wait. */
export function exchangeOver(links: ExchangeLinks, cancelled: () => boolean): NonNullable<SolveOptions['exchange']> {
  const board = new Int32Array(links.board);
  const threads = links.peers.length + 1;
  // What each peer posted and this thread has not yet taken, in order; and the last it took.
  const pending: Posted[][] = links.peers.map(() => []);
  const latest: (Posted | null)[] = links.peers.map(() => null);
  return (round, best, cost) => {
    for (const port of links.peers) port.postMessage({ round, cost, assignment: best } satisfies Posted);
    Atomics.add(board, links.index, 1);
    Atomics.notify(board, links.index);
    let chosen: Posted | null = null;
    for (const [p, port] of links.peers.entries()) {
      const j = p < links.index ? p : p + 1;
      const queue = pending[p] as Posted[];
      for (;;) {
        const seen = Atomics.load(board, j);
        // Read before the port: a peer posts its last round before it marks itself finished.
        const done = Atomics.load(board, threads + j) === 1;
        for (let m = receiveMessageOnPort(port); m !== undefined; m = receiveMessageOnPort(port)) queue.push(m.message as Posted);
        // Waiting for a round, its post is taken and a later one kept for the next round (a fast peer
        // may already have posted it), so that a seed's answer never depends on the threads' timing.
        while (queue.length > 0 && (!links.waitForRound || (queue[0] as Posted).round <= round)) latest[p] = queue.shift() as Posted;
        if (!links.waitForRound || (latest[p]?.round ?? -1) >= round || done || cancelled()) break;
        Atomics.wait(board, j, seen, NAP_MS);
      }
      const theirs = latest[p];
      if (theirs && (chosen === null || theirs.cost < chosen.cost)) chosen = theirs;
    }
    return chosen === null ? null : { assignment: chosen.assignment, cost: chosen.cost };
  };
}

/** Marks the thread finished, so that no other thread waits for its rounds. */
export function leaveExchange(links: ExchangeLinks): void {
  const board = new Int32Array(links.board);
  Atomics.store(board, links.peers.length + 1 + links.index, 1);
  Atomics.add(board, links.index, 1);
  Atomics.notify(board, links.index);
}
