import { fileURLToPath } from 'node:url';

/** Where the committed sample files live (shipped with the app for "Load sample data"). */
export const SAMPLE_DIR = fileURLToPath(new URL('./data/', import.meta.url));
