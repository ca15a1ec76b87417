/** What other layers may use of the departments (besides its repo): the scope a call acts in. */
export { callScope, FIRST_DEPARTMENT } from './service';
