import { createParser, type ParseError } from 'eventsource-parser';

/** The most a change stream may hold unfinished (a line or an event not yet ended), in characters. */
export const EVENT_STREAM_BUFFER = 1_000_000;

/**
 * Reads a server-sent event stream (`GET /events`) until it ends, handing each data event's data
 * to `onData`. Parsed by eventsource-parser; an unfinished line or event longer than `maxBuffer`
 * characters ends the reading with an error, so a hostile stream cannot fill the memory.
 */
export async function readEventStream(body: AsyncIterable<Uint8Array>, onData: (data: string) => void, maxBuffer = EVENT_STREAM_BUFFER): Promise<void> {
  let overflow: ParseError | null = null;
  const parser = createParser({
    maxBufferSize: maxBuffer,
    // Only the stream's data events: a named event (the stream saying the session ended) is the page's.
    onEvent: (event) => {
      if (event.event === undefined || event.event === 'message') onData(event.data);
    },
    // A field the stream does not define is skipped, as a browser's EventSource skips it.
    onError: (error) => {
      if (error.type === 'max-buffer-size-exceeded') overflow = error;
    },
  });
  const decoder = new TextDecoder();
  for await (const chunk of body) {
    parser.feed(decoder.decode(chunk, { stream: true }));
    if (overflow !== null) throw new Error(`The event stream sent more than ${maxBuffer} characters without ending an event`, { cause: overflow });
  }
}
