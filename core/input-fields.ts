import { z } from 'zod';

/**
 * Request fields several features share. Which campus names exist is configuration, so the schema
 * only checks the shape; the service resolves the name with `ctx.campuses.require(value, field)`.
 */
export const campusName = z.string({ error: 'must be a campus name' }).trim().min(1, 'must be a campus name').max(200, 'must be a campus name');
