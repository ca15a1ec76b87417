import { z } from 'zod';
import { defineHandlers, handler } from '../registry';
import { boundedText } from '../input-fields';
import { changeDepartment, createDepartment, visibleDepartments } from './service';

const code = boundedText(20)
  .trim()
  .regex(/^[A-Za-z][A-Za-z0-9_-]{0,19}$/, 'must be a short code: letters, digits, - or _, starting with a letter');
const name = boundedText(100).trim().min(1, 'a name is required');
const campuses = z.array(boundedText(60)).max(20, 'at most 20 campuses').nullable();

export const departmentHandlers = defineHandlers({
  'departments-list': handler(z.object({}), "The campus's departments (the registrar's view; a member sees their own)", (ctx) => visibleDepartments(ctx)),
  'departments-create': handler(
    z.object({ code, name, campuses: campuses.optional() }),
    'Add a department to the campus (registrar)',
    (ctx, input) => createDepartment(ctx, input),
    { writes: ['departments'], access: 'registrar' },
  ),
  'departments-update': handler(
    z.object({
      department_id: z.coerce.number({ error: 'must be a department id' }).int().positive(),
      code: code.optional(),
      name: name.optional(),
      campuses: campuses.optional(),
    }),
    "Change a department's code, name or campuses (registrar)",
    (ctx, input) => changeDepartment(ctx, input),
    { writes: ['departments'], access: 'registrar' },
  ),
});
