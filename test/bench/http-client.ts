import { Agent, request } from 'node:http';

/**
 * A script's HTTP client as lean as Node offers: node:http over one kept-alive connection. The
 * measured latency is then the server's and the loopback's, not the client library's (fetch's
 * per-request allocations add their own garbage-collection pauses to the tail).
 */
export function keepAliveClient(
  baseUrl: string,
  token: string,
  extraHeaders: Record<string, string> = {},
): { send(method: string, path: string, body?: unknown): Promise<{ status: number; body: string }>; close(): void } {
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const base = new URL(baseUrl);
  return {
    send(method, path, body) {
      const payload = body === undefined ? undefined : JSON.stringify(body);
      return new Promise((resolve, reject) => {
        const req = request(
          {
            agent,
            host: base.hostname,
            port: base.port,
            method,
            path: ((url) => url.pathname + url.search)(new URL(path.replace(/^\//, ''), base)),
            headers: {
              authorization: `Bearer ${token}`,
              ...extraHeaders,
              ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
            },
          },
          (response) => {
            const chunks: Buffer[] = [];
            response.on('data', (chunk: Buffer) => chunks.push(chunk));
            response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }));
            response.on('error', reject);
          },
        );
        req.on('error', reject);
        req.end(payload);
      });
    },
    close: () => agent.destroy(),
  };
}
