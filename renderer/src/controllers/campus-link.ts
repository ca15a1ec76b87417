import { useEffect, useState } from 'react';
import { campusLink, transport } from '../api/client';
import { queryClient } from '../api/live';
import { messageOf } from '../api/errors';
import type { Term } from '../api/wire';
import { notifyDone, notifyError } from '../lib/notify';
import { termLabel } from '../../../core/domain/terms';
import type { ConflictChoice, ConflictSide, SyncConflict, SyncCounts, SyncOutcome } from '../../../core/domain/meeting-changes';

interface LinkStatus {
  connected: boolean;
  online: boolean;
  url: string | null;
}

/**
 * A term's copy on this computer against the server: the counts of changes on each side, and
 * publish or fetch with the conflicts they leave for the person to settle (their choices kept
 * until a publish or fetch stores).
 */
function useTermSync(setProblem: (problem: string | null) => void) {
  const [counts, setCounts] = useState<SyncCounts | null>(null);
  const [outcome, setOutcome] = useState<SyncOutcome | null>(null);
  const [choices, setChoices] = useState<Record<string, ConflictChoice>>({});
  const refreshCounts = async (term: Term): Promise<void> => {
    try {
      setCounts((await campusLink('sync-counts', { ...term })) as SyncCounts);
    } catch {
      // Offline or not connected: no counts to show.
      setCounts(null);
    }
  };
  const sync = async (action: 'publish' | 'fetch', term: Term, dryRun: boolean): Promise<void> => {
    setProblem(null);
    try {
      const result = (await campusLink(action, { ...term, dry_run: dryRun, choices })) as SyncOutcome;
      setOutcome(result.stored || result.status === 'preview' ? null : result);
      if (result.stored) {
        setChoices({});
        notifyDone(
          action === 'publish'
            ? `${result.published} change${result.published === 1 ? '' : 's'} of ${termLabel(term)} published; ${result.fetched} from the server brought here.`
            : `${result.fetched} change${result.fetched === 1 ? '' : 's'} of ${termLabel(term)} fetched; ${result.pending} of this computer's still to publish.`,
          action === 'publish' ? 'Published' : 'Fetched',
        );
        void queryClient.resetQueries();
      } else if (result.status === 'preview') notifyDone(`${termLabel(term)}: ${result.published} change(s) would publish without a conflict.`, 'Checked');
    } catch (e) {
      setProblem(messageOf(e));
    }
    await refreshCounts(term);
  };
  return {
    /** Where this computer's copy of the term stands: its changes not published, the server's not fetched. */
    counts,
    /** The last publish's or fetch's conflicts and refusals, for the person to settle. */
    outcome,
    choices,
    /** Keeps one side of a conflict, naming the server's version shown: if it changes again before the next try, that is a new conflict. */
    choose: (conflict: SyncConflict, side: ConflictSide): void =>
      setChoices((c) => ({ ...c, [conflict.meeting_uid]: { choice: side, seen_change_id: conflict.their_change?.id ?? null } })),
    /** Check (dry run) or publish this computer's changes: stored, or the conflicts and refusals listed with nothing stored. */
    publish: (term: Term, dryRun: boolean): Promise<void> => sync('publish', term, dryRun),
    /** Fetch the server's changes, keeping this computer's unpublished ones. */
    fetchBack: (term: Term): Promise<void> => sync('fetch', term, false),
    refreshCounts,
  };
}

/** Settings → Campus server (desktop app): connect with a sign-in, publish this computer's changes to a term, fetch the server's. */
export function useCampusLink() {
  const available = transport.kind === 'ipc';
  const [status, setStatus] = useState<LinkStatus | null>(null);
  const [form, setForm] = useState({ url: '', login: '', password: '' });
  const [problem, setProblem] = useState<string | null>(null);
  const termSync = useTermSync(setProblem);
  useEffect(() => {
    if (available)
      void campusLink('status').then(
        (s) => setStatus(s as LinkStatus),
        (e: unknown) => setProblem(messageOf(e)),
      );
  }, [available]);
  const changed = (next: unknown): void => {
    setStatus(next as LinkStatus);
    void queryClient.resetQueries();
  };
  return {
    available,
    status,
    form,
    problem,
    edit: (change: Partial<typeof form>) => setForm((f) => ({ ...f, ...change })),
    connect: async (): Promise<void> => {
      setProblem(null);
      try {
        changed(await campusLink('connect', form));
        setForm((f) => ({ ...f, password: '' }));
        notifyDone(`The screens now plan on ${form.url}.`, 'Connected');
      } catch (e) {
        setProblem(messageOf(e));
      }
    },
    /** The screens on the server (online) or on this computer (offline), the server kept for publishing. */
    goOnline: async (online: boolean): Promise<void> => {
      try {
        changed(await campusLink(online ? 'online' : 'offline'));
        notifyDone(
          online ? 'The screens plan on the campus server.' : 'The screens plan on this computer; publish a term when it is ready.',
          online ? 'Online' : 'Working offline',
        );
      } catch (e) {
        notifyError(e);
      }
    },
    disconnect: async (): Promise<void> => {
      try {
        changed(await campusLink('disconnect'));
        notifyDone('This computer no longer keeps the campus server or its token.', 'Disconnected');
      } catch (e) {
        notifyError(e);
      }
    },
    ...termSync,
  };
}
