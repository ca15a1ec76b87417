/** A key of something in its department (a course, a cohort, a campus's course): two departments may use one code. */
export const inDepartment = (department: number, ...keys: (string | number)[]): string => [department, ...keys].join('|');
