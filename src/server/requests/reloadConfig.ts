// `a1 tabs host reload`: config.json read again and applied, answered at once with what changed.
import type { RequestHandler } from './context.js';

export const reloadConfig: RequestHandler<'reloadConfig'> = {
  take: (ctx) => ({ result: ctx.reloadConfig() }),
};
