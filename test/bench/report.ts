/** Collects benchmark measurements and prints them as one table with their targets. */
export interface Measurement {
  name: string;
  value: number;
  unit: string;
  /** Upper bound the value must stay under, if the issue sets one. */
  target?: number;
  note?: string;
}

export const measurements: Measurement[] = [];

export function record(m: Measurement): void {
  measurements.push(m);
  const verdict = m.target === undefined ? '' : m.value <= m.target ? `  ✓ target ≤ ${m.target} ${m.unit}` : `  ✗ target ≤ ${m.target} ${m.unit}`;
  console.log(`  ${m.name}: ${formatValue(m.value)} ${m.unit}${verdict}${m.note ? `  (${m.note})` : ''}`);
}

function formatValue(v: number): string {
  return Math.abs(v) >= 100 ? v.toFixed(0) : Math.abs(v) >= 1 ? v.toFixed(2) : v.toFixed(3);
}

export async function timed<T>(fn: () => Promise<T> | T): Promise<{ ms: number; result: T }> {
  const start = performance.now();
  const result = await fn();
  return { ms: performance.now() - start, result };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[index] ?? NaN;
}
