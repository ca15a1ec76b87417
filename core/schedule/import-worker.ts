import { workerData } from 'node:worker_threads';
import { openWorkerContext, type WorkerContextData } from '../worker-context';
import { replyToParent } from '../workers';
import { runImport, type TimetableImportInput } from './import-run';

/** The timetable import's thread: reads the listing, plans and (unless a dry run) applies it on its own connection. */
const { context, input } = workerData as { context: WorkerContextData; input: TimetableImportInput };

async function main(): Promise<unknown> {
  const ctx = await openWorkerContext(context);
  try {
    return await runImport(ctx, input);
  } finally {
    await ctx.store.close();
  }
}

replyToParent(main(), null);
