import { z } from 'zod';
import { defineHandlers, handler } from '../registry';
import { VERSION } from '../version';

export const systemHandlers = defineHandlers({
  health: handler(z.object({}), 'Liveness and version', () => ({ status: 'ok' as const, version: VERSION })),
});
