import { useEffect, useState } from 'react';
import { transport } from '../api/client';
import { useLive, queryClient } from '../api/live';
import { messageOf } from '../api/errors';
import { actingDepartment, chooseDepartment } from '../api/session';
import { useSession } from '../stores/session';

/** No departments yet: one list, the same on every redraw. */
const NO_DEPARTMENTS: never[] = [];

/** The sign-in form of a campus server's page: a login and a password, the refusal in words. */
export function useSignIn() {
  const [login, setLogin] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  return {
    available: transport.signInWithPassword !== undefined,
    login,
    password,
    error,
    busy,
    setLogin,
    setPassword,
    submit: async (): Promise<void> => {
      if (!transport.signInWithPassword) return;
      setBusy(true);
      setError(null);
      try {
        await transport.signInWithPassword(login, password);
        setPassword('');
        queryClient.clear();
        useSession.getState().signedOut('none');
      } catch (e) {
        setError(messageOf(e));
      } finally {
        setBusy(false);
      }
    },
  };
}

/**
 * What the signed-in role may do on screen, so that no screen offers what the server would refuse:
 * writing (schedulers and the registrar; a viewer reads), and the registrar's own actions. Nothing
 * is offered until who is signed in is known.
 */
export function useRole(): { canWrite: boolean; isRegistrar: boolean } {
  const me = useLive('me', {}).data ?? null;
  return { canWrite: me !== null && me.role !== 'viewer', isRegistrar: me?.role === 'registrar' };
}

/**
 * Who is signed in, the department the screens act in and, for the registrar, the switch between
 * departments: every read is asked again in the chosen one.
 */
export function useAccount() {
  const meRead = useLive('me', {});
  const me = meRead.data ?? null;
  const isRegistrar = me?.role === 'registrar';
  // A department chosen before (since renamed, or the account no longer the registrar's) refuses every call: back to one's own.
  useEffect(() => {
    if (meRead.error !== null && actingDepartment() !== null) {
      chooseDepartment(null);
      void queryClient.resetQueries();
    }
  }, [meRead.error]);
  const departments = useLive('departments-list', me ? {} : null).data ?? NO_DEPARTMENTS;
  const acting = departments.find((d) => d.id === me?.acting_in) ?? null;
  return {
    me,
    isRegistrar,
    /** A person who signed in (not the installation's own token or the desktop user). */
    isPerson: me?.person != null,
    departments,
    acting,
    /** The desktop app acts in its own data or as its connected person: no switch there. */
    canSwitch: isRegistrar && transport.kind === 'http' && departments.length > 1,
    chosen: actingDepartment(),
    switchTo: (code: string | null): void => {
      chooseDepartment(code);
      // Every answer on screen belongs to the department it was asked in.
      void queryClient.resetQueries();
    },
    signOut: transport.signOut
      ? async (): Promise<void> => {
          await transport.signOut?.();
          queryClient.clear();
          useSession.getState().signedOut('signed-out');
        }
      : null,
  };
}
