import { keepAliveClient } from './http-client';

/**
 * A monitoring script in a process of its own: `GET /health` every 10 ms until its standard input
 * closes, then prints the latencies (ms) as JSON. Run by the reliability benchmark beside a long
 * request, to see whether the server kept answering everyone else meanwhile.
 * Usage: node --import tsx test/bench/health-probe.ts URL
 */
async function main(): Promise<void> {
  const client = keepAliveClient(process.argv[2] ?? '', 'none');
  const latencies: number[] = [];
  let running = true;
  process.stdin.on('end', () => (running = false)).resume();
  while (running) {
    const started = performance.now();
    await client.send('GET', '/health');
    latencies.push(performance.now() - started);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  client.close();
  process.stdout.write(JSON.stringify(latencies));
}

void main();
