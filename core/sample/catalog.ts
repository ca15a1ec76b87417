import type { PlannedSemester } from '../domain/terms';

/**
 * The sample catalog: about 120 CSC, BIF, MTH and STA courses with their types, study-plan
 * placement and prerequisites. Offering patterns are derived from these facts in generate.ts.
 */
export type PlanSemester = PlannedSemester | 'Both';

export interface SampleCourse {
  code: string;
  name: string;
  type: string | string[];
  /** Program and year of the study plan; null for courses outside any plan. */
  plan: { program: string; year: number; semester: PlanSemester } | null;
  prerequisites: string[];
}

const CS = 'BS Computer Science';
const BIF = 'BS Bioinformatics';
const MSCS = 'MS Computer Science';
const MSBIF = 'MS Bioinformatics';
const MINOR_MTH = 'Minor in Mathematics';
const MINOR_CS = 'Minor in Computer Science';

type Row = [code: string, name: string, type: string | string[], plan: SampleCourse['plan'], prerequisites?: string[]];

const plan = (program: string, year: number, semester: PlanSemester): SampleCourse['plan'] => ({ program, year, semester });

const ROWS: Row[] = [
  // Computer science core
  ['CSC201', 'Computer Programming', 'core', plan(CS, 1, 'Both')],
  ['CSC202', 'Object-Oriented Programming', 'core', plan(CS, 1, 'Spring'), ['CSC201']],
  ['CSC215', 'Discrete Structures for Computing', 'core', plan(CS, 1, 'Fall'), ['MTH101']],
  ['CSC243', 'Introduction to Data Structures', 'core', plan(CS, 2, 'Fall'), ['CSC202']],
  ['CSC245', 'Computer Organization', 'core', plan(CS, 2, 'Fall'), ['CSC201']],
  ['CSC310', 'Algorithms and Data Structures', 'core', plan(CS, 2, 'Spring'), ['CSC243', 'CSC215']],
  ['CSC320', 'Computer Architecture', 'core', plan(CS, 2, 'Spring'), ['CSC245']],
  ['CSC326', 'Operating Systems', 'core', plan(CS, 3, 'Fall'), ['CSC310', 'CSC320']],
  ['CSC335', 'Theory of Computation', 'core', plan(CS, 3, 'Fall'), ['CSC310']],
  ['CSC375', 'Database Management Systems', 'core', plan(CS, 3, 'Spring'), ['CSC243']],
  ['CSC390', 'Software Engineering', 'core', plan(CS, 3, 'Spring'), ['CSC310']],
  ['CSC430', 'Computer Networks', 'core', plan(CS, 4, 'Fall'), ['CSC326']],
  ['CSC447', 'Parallel Programming', 'core', plan(CS, 4, 'Spring'), ['CSC326']],
  ['CSC490', 'Capstone Project I', 'core', plan(CS, 4, 'Fall'), ['CSC390']],
  ['CSC491', 'Capstone Project II', 'core', plan(CS, 4, 'Spring'), ['CSC490']],
  ['CSC199', 'Computing Seminar', 'core', plan(CS, 1, 'Fall')],
  // Computer science electives
  ['CSC311', 'Web Programming', 'elective', plan(CS, 3, 'Fall'), ['CSC202']],
  ['CSC312', 'Mobile Application Development', 'elective', plan(CS, 3, 'Spring'), ['CSC202']],
  ['CSC333', 'Functional Programming', 'elective', null, ['CSC310']],
  ['CSC340', 'Human-Computer Interaction', 'elective', null, ['CSC202']],
  ['CSC350', 'Computer Graphics', 'elective', null, ['CSC310', 'MTH201']],
  ['CSC360', 'Programming Languages', 'elective', null, ['CSC310']],
  ['CSC410', 'Compiler Construction', 'elective', null, ['CSC335']],
  ['CSC414', 'Information Security', 'elective', plan(CS, 4, 'Fall'), ['CSC430']],
  ['CSC421', 'Artificial Intelligence', 'elective', plan(CS, 4, 'Fall'), ['CSC310', 'STA201']],
  ['CSC425', 'Machine Learning', 'elective', plan(CS, 4, 'Spring'), ['CSC421', 'MTH201']],
  ['CSC426', 'Natural Language Processing', 'elective', null, ['CSC425']],
  ['CSC427', 'Computer Vision', 'elective', null, ['CSC425', 'CSC350']],
  ['CSC435', 'Distributed Systems', 'elective', null, ['CSC430']],
  ['CSC438', 'Cloud Computing', 'elective', null, ['CSC430']],
  ['CSC443', 'Game Development', 'elective', null, ['CSC350']],
  ['CSC450', 'Data Mining', 'elective', null, ['CSC375', 'STA201']],
  ['CSC455', 'Blockchain Systems', 'elective', null, ['CSC414']],
  ['CSC460', 'Robotics', 'elective', null, ['CSC421']],
  ['CSC463/BIF463', 'Computational Genomics', ['core', 'elective'], plan(BIF, 4, 'Fall'), ['CSC310', 'BIF301']],
  ['CSC465/BIF465', 'Biological Data Visualisation', ['elective'], null, ['CSC202', 'BIF201']],
  ['CSC498HN', 'Honors Research in Computing', 'elective', null, ['CSC390']],
  ['CSC499', 'Special Topics in Computing', 'elective', null, ['CSC310']],
  // Computer science masters
  ['CSC510', 'Advanced Algorithms', 'masters', plan(MSCS, 1, 'Fall')],
  ['CSC520', 'Advanced Operating Systems', 'masters', plan(MSCS, 1, 'Spring')],
  ['CSC525', 'Advanced Machine Learning', 'masters', plan(MSCS, 1, 'Fall')],
  ['CSC530', 'Advanced Computer Networks', 'masters', null],
  ['CSC535', 'Deep Learning', 'masters', null, ['CSC525']],
  ['CSC540', 'Advanced Database Systems', 'masters', null],
  ['CSC550', 'Formal Methods', 'masters', null],
  ['CSC560', 'Cyber-Physical Systems', 'masters', null],
  ['CSC599', 'Master Thesis', 'masters', plan(MSCS, 2, 'Both'), ['CSC510']],
  ['CSC610', 'Research Methods in Computing', 'masters', plan(MSCS, 1, 'Spring')],
  // Computer science minor
  ['CSC207', 'Computing for Scientists', 'minor', plan(MINOR_CS, 2, 'Fall')],
  ['CSC208', 'Introduction to Data Science', 'minor', plan(MINOR_CS, 2, 'Spring'), ['CSC207']],
  // Bioinformatics
  ['BIF201', 'Introduction to Bioinformatics', 'core', plan(BIF, 2, 'Fall'), ['CSC201']],
  ['BIF202', 'Molecular Biology for Bioinformatics', 'core', plan(BIF, 2, 'Spring')],
  ['BIF301', 'Sequence Analysis', 'core', plan(BIF, 3, 'Fall'), ['BIF201']],
  ['BIF310', 'Structural Bioinformatics', 'core', plan(BIF, 3, 'Spring'), ['BIF301']],
  ['BIF320', 'Biological Databases', 'core', plan(BIF, 3, 'Spring'), ['BIF201', 'CSC243']],
  ['BIF401', 'Systems Biology', 'core', plan(BIF, 4, 'Spring'), ['BIF310']],
  ['BIF490', 'Bioinformatics Capstone', 'core', plan(BIF, 4, 'Spring'), ['BIF301']],
  ['BIF330', 'Phylogenetics', 'elective', null, ['BIF301']],
  ['BIF340', 'Next-Generation Sequencing Analysis', 'elective', null, ['BIF301']],
  ['BIF350', 'Proteomics', 'elective', null, ['BIF202']],
  ['BIF410', 'Biostatistics Methods', 'elective', null, ['STA201']],
  ['BIF420', 'Machine Learning for Biology', 'elective', null, ['BIF301', 'STA201']],
  ['BIF430', 'Drug Discovery Informatics', 'elective', null, ['BIF310']],
  ['BIF440', 'Population Genetics', 'elective', null, ['BIF301']],
  ['BIF510', 'Advanced Genomics', 'masters', plan(MSBIF, 1, 'Fall')],
  ['BIF520', 'Computational Systems Biology', 'masters', plan(MSBIF, 1, 'Spring')],
  ['BIF530', 'Bioinformatics Algorithms', 'masters', null],
  ['BIF599', 'Bioinformatics Thesis', 'masters', plan(MSBIF, 2, 'Both')],
  ['BIF524', 'Single-Cell Analysis', 'masters', null, ['BIF510']],
  // Mathematics
  ['MTH101', 'Calculus I', 'core', plan(CS, 1, 'Both')],
  ['MTH102', 'Calculus II', 'core', plan(CS, 1, 'Spring'), ['MTH101']],
  ['MTH103', 'Precalculus', 'core', plan(BIF, 1, 'Fall')],
  ['MTH104', 'Mathematics for Life Sciences', 'core', plan(BIF, 1, 'Spring')],
  ['MTH111', 'Finite Mathematics', 'minor', plan(MINOR_MTH, 1, 'Both')],
  ['MTH201', 'Linear Algebra', 'core', plan(CS, 2, 'Fall'), ['MTH102']],
  ['MTH202', 'Calculus III', 'core', plan(CS, 2, 'Fall'), ['MTH102']],
  ['MTH206', 'Differential Equations', 'core', plan(CS, 2, 'Spring'), ['MTH102']],
  ['MTH207', 'Discrete Mathematics', 'core', plan(CS, 2, 'Spring'), ['MTH101']],
  ['MTH210', 'Introduction to Proofs', 'elective', null, ['MTH102']],
  ['MTH301', 'Real Analysis I', 'elective', null, ['MTH210']],
  ['MTH302', 'Real Analysis II', 'elective', null, ['MTH301']],
  ['MTH304', 'Abstract Algebra', 'elective', null, ['MTH210']],
  ['MTH305', 'Number Theory', 'elective', null, ['MTH210']],
  ['MTH310', 'Numerical Analysis', 'elective', plan(CS, 3, 'Spring'), ['MTH201']],
  ['MTH315', 'Complex Analysis', 'elective', null, ['MTH202']],
  ['MTH320', 'Graph Theory', 'elective', null, ['MTH207']],
  ['MTH325', 'Combinatorics', 'elective', null, ['MTH207']],
  ['MTH330', 'Mathematical Modelling', 'elective', null, ['MTH206']],
  ['MTH340', 'Optimization', 'elective', null, ['MTH201']],
  ['MTH350', 'Topology', 'elective', null, ['MTH301']],
  ['MTH360', 'Partial Differential Equations', 'elective', null, ['MTH206']],
  ['MTH370', 'Cryptography', 'elective', null, ['MTH305']],
  ['MTH401', 'Functional Analysis', 'elective', null, ['MTH302']],
  ['MTH410', 'Advanced Linear Algebra', 'elective', null, ['MTH201']],
  ['MTH215', 'Mathematics for Teachers', 'minor', plan(MINOR_MTH, 2, 'Spring'), ['MTH101']],
  ['MTH225', 'History of Mathematics', 'minor', plan(MINOR_MTH, 2, 'Fall')],
  ['MTH510', 'Advanced Numerical Methods', 'masters', null, ['MTH310']],
  ['MTH520', 'Stochastic Processes', 'masters', null],
  ['MTH530', 'Applied Functional Analysis', 'masters', null],
  ['MTH540', 'Mathematical Methods in Machine Learning', 'masters', null],
  // Statistics
  ['STA201', 'Elementary Statistics', 'core', plan(CS, 2, 'Both'), ['MTH101']],
  ['STA202', 'Statistics for Life Sciences', 'core', plan(BIF, 2, 'Fall')],
  ['STA210', 'Probability Theory', 'core', plan(CS, 3, 'Fall'), ['MTH102']],
  ['STA220', 'Statistical Computing with R', 'elective', null, ['STA201']],
  ['STA301', 'Mathematical Statistics', 'elective', null, ['STA210']],
  ['STA310', 'Regression Analysis', 'elective', null, ['STA201']],
  ['STA320', 'Design of Experiments', 'elective', null, ['STA201']],
  ['STA330', 'Time Series Analysis', 'elective', null, ['STA310']],
  ['STA340', 'Bayesian Statistics', 'elective', null, ['STA301']],
  ['STA350', 'Survey Sampling', 'elective', null, ['STA201']],
  ['STA360', 'Nonparametric Statistics', 'elective', null, ['STA301']],
  ['STA410', 'Multivariate Analysis', 'elective', null, ['STA310', 'MTH201']],
  ['STA215', 'Statistics in Society', 'minor', plan(MINOR_MTH, 2, 'Spring')],
  ['STA510', 'Advanced Statistical Learning', 'masters', null, ['STA410']],
  ['STA520', 'Generalized Linear Models', 'masters', null],
  ['STA530', 'Statistical Consulting', 'masters', null],
  ['STA100', 'Quantitative Reasoning', ['core', 'minor'], plan(MINOR_MTH, 1, 'Both')],
];

export const SAMPLE_CATALOG: SampleCourse[] = ROWS.map(([code, name, type, planned, prerequisites = []]) => ({
  code,
  name,
  type,
  plan: planned,
  prerequisites,
}));

export function studyPlanText(course: SampleCourse): string | null {
  if (!course.plan) return null;
  const term = course.plan.semester === 'Both' ? 'Fall or Spring' : course.plan.semester;
  return `${course.plan.program} — Year ${course.plan.year}, ${term}`;
}
