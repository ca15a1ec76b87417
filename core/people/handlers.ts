import { z } from 'zod';
import { defineHandlers, handler } from '../registry';
import { boundedText } from '../input-fields';
import { PERSON_ROLES } from '../domain/people';
import { PASSWORD_LENGTH } from './passwords';
import { addPerson, changePerson, createToken, myTokens, people, revokeMyToken, revokeTokenOf, tokensOf, whoAmI } from './service';

const role = z.enum(PERSON_ROLES, { error: 'must be registrar, scheduler or viewer' });
const password = z
  .string({ error: 'must be text' })
  .min(PASSWORD_LENGTH.min, `must be at least ${PASSWORD_LENGTH.min} characters`)
  .max(PASSWORD_LENGTH.max, `must be at most ${PASSWORD_LENGTH.max} characters`);
const personId = z.coerce.number({ error: 'must be a person id' }).int().positive();
const tokenId = z.coerce.number({ error: 'must be a token id' }).int().positive();
const departmentId = z.number({ error: 'must be a department id' }).int().positive().nullable();

export const peopleHandlers = defineHandlers({
  me: handler(z.object({}), 'Who the caller is: their account, role and department, and the department the call acts in', (ctx) => whoAmI(ctx)),
  'people-list': handler(z.object({}), "The campus's people (registrar)", (ctx) => people(ctx), { access: 'registrar' }),
  'people-create': handler(
    z.object({
      login: boundedText(80)
        .trim()
        .regex(/^[A-Za-z0-9._@-]{2,80}$/, 'must be 2–80 letters, digits or . _ @ -'),
      name: boundedText(100).trim().min(1, 'a name is required'),
      role,
      department_id: departmentId.optional(),
      password,
    }),
    'Add a person who signs in (registrar): the registrar, or a scheduler or viewer of one department',
    (ctx, input) => addPerson(ctx, input),
    { writes: ['people'], access: 'registrar' },
  ),
  'people-update': handler(
    z.object({
      person_id: personId,
      name: boundedText(100).trim().min(1).optional(),
      role: role.optional(),
      department_id: departmentId.optional(),
      password: password.optional(),
      disabled: z.boolean({ error: 'must be true or false' }).optional(),
      unlock: z.literal(true, { error: 'must be true (lifts a lock of failed sign-ins)' }).optional(),
    }),
    "Change a person's name, role, department or password, unlock them, or disable their sign-in (registrar). A new password lifts a lock of failed sign-ins, ends the person's browser sessions and revokes their personal tokens; a new role or department, or disabling, ends their sessions",
    (ctx, input) => changePerson(ctx, input),
    { writes: ['people'], access: 'registrar' },
  ),
  'people-tokens-list': handler(
    z.object({ person_id: personId }),
    "A person's personal tokens, live and revoked, with who revoked each and why (registrar; never the tokens themselves)",
    (ctx, { person_id }) => tokensOf(ctx, person_id),
    { access: 'registrar' },
  ),
  'people-tokens-revoke': handler(
    z.object({ person_id: personId, token_id: tokenId }),
    "Revoke one of a person's personal tokens (a leaked one): refused at once from then on, recorded with who revoked it (registrar)",
    (ctx, { person_id, token_id }) => revokeTokenOf(ctx, person_id, token_id),
    { writes: ['people'], access: 'registrar' },
  ),
  'tokens-list': handler(z.object({}), "The caller's personal tokens (never the tokens themselves)", (ctx) => myTokens(ctx), { access: 'self' }),
  'tokens-create': handler(
    z.object({ label: boundedText(80).trim().min(1, 'name the token (what script uses it)') }),
    'A new personal token for scripts, acting as the caller: shown this once',
    (ctx, input) => createToken(ctx, input),
    { writes: ['people'], access: 'self' },
  ),
  'tokens-revoke': handler(
    z.object({ token_id: tokenId }),
    "Revoke one of the caller's personal tokens: refused at once from then on",
    (ctx, { token_id }) => revokeMyToken(ctx, token_id),
    { writes: ['people'], access: 'self' },
  ),
});
