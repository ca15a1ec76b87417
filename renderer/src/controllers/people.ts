import { useState } from 'react';
import { call, type Args, type Result } from '../api/client';
import { useLive } from '../api/live';
import { notifyDone, notifyError } from '../lib/notify';

export type PersonRow = Result<'people-list'>[number];
export type TokenRow = Result<'tokens-list'>[number];
export type NewPerson = Args<'people-create'>;

const EMPTY_PERSON: NewPerson = { login: '', name: '', role: 'scheduler', department_id: null, password: '' };

/** Settings → People (the registrar's): the campus's accounts, adding one, disabling one, a new password. */
export function usePeople(enabled: boolean) {
  const people = useLive('people-list', enabled ? {} : null);
  const departments = useLive('departments-list', enabled ? {} : null).data ?? [];
  const [draft, setDraft] = useState<NewPerson>(EMPTY_PERSON);
  const [problem, setProblem] = useState<string | null>(null);
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
    /** Whether failed sign-ins lock the person out now. */
    isLocked: (person: PersonRow): boolean => person.locked_until !== null && person.locked_until > new Date().toISOString(),
    setPassword: async (person: PersonRow, password: string): Promise<boolean> => {
      try {
        await call('people-update', { person_id: person.id, password });
        notifyDone(`${person.name} signs in with the new password from now on (any lock of failed sign-ins is lifted).`, 'Password changed');
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
