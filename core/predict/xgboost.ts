import { createRequire } from 'node:module';

/**
 * XGBoost (ml-xgboost, compiled to WebAssembly) driven through its raw interface: the
 * package's convenience wrapper copies the training matrix onto the WASM stack and crashes
 * above ~5 MB, so data is placed on the heap with _malloc instead. Histogram tree building
 * (tree_method=hist) keeps 100,000-row training within seconds.
 */
interface XgbModule {
  isReady: Promise<XgbModule>;
  HEAPU8: Uint8Array;
  HEAPF32: Float32Array;
  _malloc(bytes: number): number;
  _free(pointer: number): void;
  _create_model(data: number, labels: number, rows: number, cols: number): number;
  _free_memory_model(model: number): void;
  _train_full_model(model: number, iterations: number): void;
  _predict_one(model: number, row: number, cols: number, out: number): number;
  _save_model(model: number): number;
  _get_file_content(out: number, size: number): void;
  _load_model(data: number, size: number): number;
  cwrap(name: 'set_param', ret: null, args: ['number', 'string', 'string']): (model: number, key: string, value: string) => void;
  /** Emscripten's growth of the heap: called with the new size, false when it cannot grow. */
  reallocBuffer(size: number): unknown;
}

export type BoosterParams = Record<string, string | number>;

let loading: Promise<XgbModule> | null = null;

async function xgboost(): Promise<XgbModule> {
  if (!loading) {
    const require = createRequire(import.meta.url);
    // The Emscripten loader announces its ArrayBuffer fallback on stderr; nothing is wrong.
    const warn = console.warn;
    console.warn = () => undefined;
    try {
      const mod = require('ml-xgboost/dist/wasm/xgboost.js') as XgbModule;
      loading = mod.isReady.finally(() => {
        console.warn = warn;
      });
    } catch (error) {
      console.warn = warn;
      throw error;
    }
  }
  return loading;
}

/**
 * Caps this thread's XGBoost heap: past `maxBytes` it cannot grow, so the runtime aborts (the call
 * throws) instead of taking the machine's memory. A damaged model's sizes read as gigabytes.
 */
export async function capXgboostHeap(maxBytes: number): Promise<void> {
  const mod = await xgboost();
  const grow = mod.reallocBuffer.bind(mod);
  mod.reallocBuffer = (size) => (size > maxBytes ? false : grow(size));
}

/** Copies a float array onto the WASM heap; the caller frees it. */
function place(mod: XgbModule, values: Float32Array): number {
  const pointer = mod._malloc(Math.max(4, values.byteLength));
  mod.HEAPF32.set(values, pointer >> 2);
  return pointer;
}

export class Booster {
  private constructor(
    private readonly mod: XgbModule,
    private handle: number,
  ) {}

  static async train(features: Float32Array, labels: Float32Array, rows: number, cols: number, params: BoosterParams, rounds: number): Promise<Booster> {
    if (rows === 0 || features.length !== rows * cols || labels.length !== rows) throw new Error('Training data is empty or misshaped');
    const mod = await xgboost();
    const data = place(mod, features);
    const target = place(mod, labels);
    try {
      const handle = mod._create_model(data, target, rows, cols);
      const setParam = mod.cwrap('set_param', null, ['number', 'string', 'string']);
      for (const [key, value] of Object.entries(params)) setParam(handle, key, String(value));
      mod._train_full_model(handle, rounds);
      return new Booster(mod, handle);
    } finally {
      mod._free(data);
      mod._free(target);
    }
  }

  static async load(bytes: Uint8Array): Promise<Booster> {
    const mod = await xgboost();
    const pointer = mod._malloc(bytes.byteLength);
    mod.HEAPU8.set(bytes, pointer);
    try {
      const handle = mod._load_model(pointer, bytes.byteLength);
      if (handle === 0) throw new Error('The stored model could not be loaded');
      return new Booster(mod, handle);
    } finally {
      mod._free(pointer);
    }
  }

  /** One prediction per row (probability for binary:logistic, value for regression). */
  predict(features: Float32Array, rows: number, cols: number): Float32Array {
    const out = new Float32Array(rows);
    if (rows === 0) return out;
    const data = place(this.mod, features);
    const result = this.mod._malloc(16);
    try {
      for (let i = 0; i < rows; i++) {
        this.mod._predict_one(this.handle, data + i * cols * 4, cols, result);
        out[i] = this.mod.HEAPF32[result >> 2] ?? 0;
      }
    } finally {
      this.mod._free(data);
      this.mod._free(result);
    }
    return out;
  }

  save(): Uint8Array {
    const size = this.mod._save_model(this.handle);
    if (size <= 0) throw new Error('The model could not be saved');
    const pointer = this.mod._malloc(size);
    try {
      this.mod._get_file_content(pointer, size);
      return this.mod.HEAPU8.slice(pointer, pointer + size);
    } finally {
      this.mod._free(pointer);
    }
  }

  free(): void {
    if (this.handle !== 0) this.mod._free_memory_model(this.handle);
    this.handle = 0;
  }
}
