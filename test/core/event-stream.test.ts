import { describe, expect, it } from 'vitest';
import { readEventStream } from '../../core/util/event-stream';

/** A stream's body arriving in these pieces, one after another. */
async function* chunks(...texts: string[]): AsyncIterable<Uint8Array> {
  for (const text of texts) {
    await new Promise((resolve) => setImmediate(resolve));
    yield new TextEncoder().encode(text);
  }
}

describe('reading a change stream (GET /events)', () => {
  it('hands over each event whole, however the chunks split it, and skips comments', async () => {
    const data: string[] = [];
    await readEventStream(chunks(': connected\n\n', 'data: {"type":"chan', 'ged"}\n', '\ndata: {"a":1}\n\ndata: é', 'à\n\n'), (d) => data.push(d));
    expect(data).toEqual(['{"type":"changed"}', '{"a":1}', 'éà']);
  });

  it('stops with an error when an event never ends, instead of holding it all', async () => {
    const data: string[] = [];
    const endless = chunks('data: {"type":"changed"}\n\n', `data: ${'x'.repeat(600)}`, 'x'.repeat(600));
    await expect(readEventStream(endless, (d) => data.push(d), 1_000)).rejects.toThrow(/more than 1000 characters without ending an event/);
    expect(data).toEqual(['{"type":"changed"}']);
  });
});
