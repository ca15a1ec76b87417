import { useEffect, useState } from 'react';
import { call, type Args, type Result } from '../api/client';
import { useLive } from '../api/live';
import { notifyDone, notifyError } from '../lib/notify';

export type PersonRow = Result<'people-list'>[number];
export type TokenRow = Result<'tokens-list'>[number];

/** A time of day as a person reads it (their own clock): "21:15". */
export const clockTime = (iso: string): string => new Date(iso).toLocaleTimeString('en-GB', { hour: '2-digit', minute: '2-digit' });

/** Now, read again when the earliest of the given times passes (a lock that runs out shows as lifted without a reload). */
function useNowPast(times: readonly (string | null)[]): string {
  const [now, setNow] = useState(() => new Date().toISOString());
  const next = times.filter((t): t is string => t !== null && t > now).sort()[0];
  useEffect(() => {
    if (next === undefined) return undefined;
    const timer = setTimeout(() => setNow(new Date().toISOString()), Math.min(Date.parse(next) - Date.now() + 50, 2 ** 31 - 1));
    return () => clearTimeout(timer);
  }, [next]);
  return now;
}
export type NewPerson = Args<'people-create'>;

const EMPTY_PERSON: NewPerson = { login: '', name: '', role: 'scheduler', department_id: null, password: '' };

/** Settings → People (the registrar's): the campus's accounts, adding one, disabling one, a new password. */
export function usePeople(enabled: boolean) {
  const people = useLive('people-list', enabled ? {} : null);
  const departments = useLive('departments-list', enabled ? {} : null).data ?? [];
  const [draft, setDraft] = useState<NewPerson>(EMPTY_PERSON);
  const [problem, setProblem] = useState<string | null>(null);
  const now = useNowPast((people.data ?? []).map((p) => p.locked_until));
  return {
    people: people.data ?? [],
    error: people.error,
    departments,
    draft,
    problem,
    edit: (change: Partial<NewPerson>) => setDraft((current) => ({ ...current, ...change })),
    add: async (): Promise<void> => {
      setProblem(null);
      try {
        const input = { ...draft, department_id: draft.role === 'registrar' ? null : draft.department_id };
        const added = await call('people-create', input);
        setDraft(EMPTY_PERSON);
        notifyDone(`${added.name} can sign in as ${added.login}.`, 'Person added');
      } catch (e) {
        setProblem(e instanceof Error ? e.message : String(e));
      }
    },
    setDisabled: async (person: PersonRow, disabled: boolean): Promise<void> => {
      try {
        await call('people-update', { person_id: person.id, disabled });
        notifyDone(disabled ? `${person.name} can no longer sign in; their sessions and tokens stop at once.` : `${person.name} can sign in again.`);
      } catch (e) {
        notifyError(e);
      }
    },
    /** Lifts a lock of failed sign-ins. */
    unlock: async (person: PersonRow): Promise<void> => {
      try {
        await call('people-update', { person_id: person.id, unlock: true });
        notifyDone(`${person.name} can sign in again (the lock of failed sign-ins is lifted).`, 'Unlocked');
      } catch (e) {
        notifyError(e);
      }
    },
    /** Until when failed sign-ins lock the person out (their own clock), or null when they do not now. */
    lockedUntil: (person: PersonRow): string | null => (person.locked_until !== null && person.locked_until > now ? clockTime(person.locked_until) : null),
    setPassword: async (person: PersonRow, password: string): Promise<boolean> => {
      try {
        await call('people-update', { person_id: person.id, password });
        notifyDone(
          `${person.name} signs in with the new password from now on: their open sessions ended and their personal tokens were revoked (any lock of failed sign-ins is lifted).`,
          'Password changed',
        );
        return true;
      } catch (e) {
        notifyError(e, 'Password not changed');
        return false;
      }
    },
  };
}

/** Settings → Departments (the registrar's): the campus's departments and adding one. */
export function useDepartmentsAdmin(enabled: boolean) {
  const departments = useLive('departments-list', enabled ? {} : null);
  const [code, setCode] = useState('');
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  return {
    departments: departments.data ?? [],
    code,
    name,
    problem,
    setCode,
    setName,
    add: async (): Promise<void> => {
      setProblem(null);
      try {
        const added = await call('departments-create', { code, name });
        setCode('');
        setName('');
        notifyDone(`${added.name} (${added.code}) plans on this server from now on.`, 'Department added');
      } catch (e) {
        setProblem(e instanceof Error ? e.message : String(e));
      }
    },
    /** Renames a department (the built-in one included): true when done, else the refusal is shown. */
    rename: async (id: number, change: { code: string; name: string }): Promise<boolean> => {
      setProblem(null);
      try {
        const renamed = await call('departments-update', { department_id: id, ...change });
        notifyDone(`Now ${renamed.code} — ${renamed.name}.`, 'Department renamed');
        return true;
      } catch (e) {
        setProblem(e instanceof Error ? e.message : String(e));
        return false;
      }
    },
  };
}

/** Settings → My tokens: the signed-in person's tokens for scripts; a new one is shown once. */
export function useMyTokens(enabled: boolean) {
  const tokens = useLive('tokens-list', enabled ? {} : null);
  const [label, setLabel] = useState('');
  const [created, setCreated] = useState<{ label: string; token: string } | null>(null);
  return {
    tokens: (tokens.data ?? []).filter((t) => !t.revoked),
    error: tokens.error,
    label,
    setLabel,
    /** The token just made, until it is dismissed: never shown again. */
    created,
    dismissCreated: () => setCreated(null),
    create: async (): Promise<void> => {
      try {
        const made = await call('tokens-create', { label });
        setLabel('');
        setCreated({ label: made.label, token: made.token });
      } catch (e) {
        notifyError(e, 'Token not made');
      }
    },
    revoke: async (token: TokenRow): Promise<void> => {
      try {
        await call('tokens-revoke', { token_id: token.id });
        notifyDone(`Scripts using "${token.label}" are refused from now on.`, 'Token revoked');
      } catch (e) {
        notifyError(e);
      }
    },
  };
}

/** How a revocation reads: "revoked 21:15 by Jane Doe, with a new password". */
export function revocationWords(token: TokenRow): string {
  if (!token.revoked) return 'live';
  const when = token.revoked_at === null ? '' : ` ${clockTime(token.revoked_at)} ${token.revoked_at.slice(0, 10)}`;
  const by = token.revoked_by === null ? '' : ` by ${token.revoked_by}`;
  return `revoked${when}${by}${token.revoked_because === 'password_changed' ? ', with a new password' : ''}`;
}

/** People → a person → Tokens (the registrar's): their personal tokens, live and revoked, and revoking one. */
export function usePersonTokens(person: PersonRow | null) {
  const tokens = useLive('people-tokens-list', person === null ? null : { person_id: person.id });
  return {
    tokens: tokens.data ?? [],
    error: tokens.error,
    revoke: async (token: TokenRow): Promise<void> => {
      if (person === null) return;
      try {
        await call('people-tokens-revoke', { person_id: person.id, token_id: token.id });
        notifyDone(`Scripts using ${person.name}'s token "${token.label}" are refused from now on.`, 'Token revoked');
      } catch (e) {
        notifyError(e);
      }
    },
  };
}
