import { z } from 'zod';

/**
 * Request fields several features share. Which campus names exist is configuration, so the schema
 * only checks the shape; the service resolves the name with `ctx.campuses.require(value, field)`.
 */
export const campusName = z.string({ error: 'must be a campus name' }).trim().min(1, 'must be a campus name').max(200, 'must be a campus name');

/** A yes/no field as JSON (true/false) or a form or query string ("true", "false", "1", "0"). */
export const flagField = z.union([z.boolean(), z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1')], { error: 'must be true or false' });
