/** What other features may use of the offering history (besides its repo): its import, its columns and the terms left out as incomplete. */
export { OFFERING_COLUMNS, OFFERING_GROUPING_COLUMNS } from './columns';
export { campusTermKey, type IncompleteTerm } from './completeness';
export { importOfferings, leftOutTerms } from './service';
export { missingOfferingColumns, missingOfferingYears } from './upload';
