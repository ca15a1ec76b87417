import { useEffect, useState } from 'react';
import { campusLink, transport } from '../api/client';
import { queryClient } from '../api/live';
import { messageOf } from '../api/errors';
import type { Term } from '../api/wire';
import { notifyDone, notifyError } from '../lib/notify';
import { termLabel } from '../../../core/domain/terms';

interface LinkStatus {
  connected: boolean;
  online: boolean;
  url: string | null;
}

/** Settings → Campus server (desktop app): connect with a sign-in, publish a term planned offline, fetch one back. */
export function useCampusLink() {
  const available = transport.kind === 'ipc';
  const [status, setStatus] = useState<LinkStatus | null>(null);
  const [form, setForm] = useState({ url: '', login: '', password: '' });
  const [problem, setProblem] = useState<string | null>(null);
  const [clashes, setClashes] = useState<string[]>([]);
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
    clashes,
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
    /** Publishes the laptop's term to the server: refused whole with every clash listed, or stored whole. */
    publish: async (term: Term, dryRun: boolean): Promise<void> => {
      setProblem(null);
      setClashes([]);
      try {
        await campusLink('publish', { ...term, dry_run: dryRun });
        notifyDone(
          dryRun ? `${termLabel(term)} would publish without a clash.` : `${termLabel(term)} is on the campus server.`,
          dryRun ? 'Checked' : 'Published',
        );
      } catch (e) {
        setProblem(messageOf(e));
        const listed = (e as { conflicts?: unknown }).conflicts;
        if (Array.isArray(listed)) setClashes(listed.map((c) => (typeof c === 'string' ? c : JSON.stringify(c))));
      }
    },
    fetchBack: async (term: Term): Promise<void> => {
      try {
        await campusLink('fetch', { ...term });
        notifyDone(`${termLabel(term)} was fetched from the campus server to plan offline.`, 'Fetched');
      } catch (e) {
        notifyError(e, 'Not fetched');
      }
    },
  };
}
