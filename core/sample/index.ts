/** The sample department's files and campuses, for loading it. */
export { SAMPLE_DIR } from './paths';
export { SAMPLE_CAMPUSES } from './generate';
