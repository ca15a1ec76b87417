/** What other features may use of predictions (besides its repos): a saved run, and the loaded models' lifecycle. */
export { followModelChanges, run } from './service';
export type { PredictionRun } from './schema';
export { checkStoredModels } from './model-check';
export { departmentProfile } from './profile';
