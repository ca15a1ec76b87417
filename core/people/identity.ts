import type { Db } from '../db/store';
import { storeRefusal } from '../db/errors';
import type { Actor } from '../domain/people';
import type { CoreEvents } from '../events';
import { countAddressAttempt, forgetAddressesBefore } from './repo';
import { actorOfPerson, actorOfToken, signIn, type SignInOutcome } from './service';
import {
  checkSession,
  endAllSessions,
  endSession,
  issueSignInLink,
  openSession,
  sessionLive,
  signInLinkLive,
  useSignInLink,
  type NewSession,
  type SessionCheck,
} from './sessions';

/**
 * The one door by which a transport learns who asks: a sign-in (its attempts counted per address and
 * per account, in the store, so every server process counts them together), a personal token, a
 * person's browser session, a one-time sign-in link. All of it lives in the store, so any server process
 * answers any request. The store's own refusals come back in words (busy, unreachable: 503), as from
 * every handler.
 */
export interface Identity {
  /** Counts a sign-in attempt from an address; answers the seconds to wait when it is one too many, else 0. */
  addressAttempt(address: string, limit: { attempts: number; windowMs: number }): Promise<number>;
  signIn(login: string, password: string): Promise<SignInOutcome>;
  actorOfToken(token: string): Promise<Actor | null>;
  actorOfPerson(person: number): Promise<Actor | null>;
  /** A new browser session for the actor (see sessions.ts). */
  openSession(actor: Actor): Promise<NewSession>;
  checkSession(id: string, key: string): Promise<SessionCheck>;
  sessionLive(id: string): Promise<boolean>;
  endSession(id: string): Promise<void>;
  /** Ends every browser session and sign-in link (the API token was regenerated). */
  endAllSessions(): Promise<void>;
  issueSignInLink(): Promise<string>;
  /** Uses a one-time sign-in link up: true once, for a live link. */
  useSignInLink(nonce: string): Promise<boolean>;
  signInLinkLive(nonce: string): Promise<boolean>;
}

async function inWords<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw storeRefusal(error) ?? error;
  }
}

/**
 * The store's identity door. A lock of failed sign-ins is announced as a change to people (to the
 * registrar and the person's department, on every process), so that an open People list shows it.
 */
export function identityOf(db: Db, now: () => Date, events: CoreEvents): Identity {
  const announceLock = ({ department_id }: { department_id: number | null }): void =>
    events.emit({ type: 'changed', areas: ['people'], ...(department_id === null ? {} : { department: department_id }) });
  return {
    addressAttempt: (address, limit) =>
      inWords(async () => {
        const at = now();
        const since = new Date(at.getTime() - limit.windowMs).toISOString();
        const counted = await countAddressAttempt(db, address.slice(0, 100), at.toISOString(), since);
        // Now and then, addresses whose window is over are forgotten.
        if (counted.attempts === 1 && Math.random() < 0.01) await forgetAddressesBefore(db, since);
        if (counted.attempts <= limit.attempts) return 0;
        return Math.max(1, Math.ceil((Date.parse(counted.window_start) + limit.windowMs - at.getTime()) / 1000));
      }),
    signIn: (login, password) => inWords(() => signIn(db, login, password, now(), announceLock)),
    actorOfToken: (token) => inWords(() => actorOfToken(db, token, now())),
    actorOfPerson: (person) => inWords(() => actorOfPerson(db, person)),
    openSession: (actor) => inWords(() => openSession(db, actor, now())),
    checkSession: (id, key) => inWords(() => checkSession(db, id, key, now())),
    sessionLive: (id) => inWords(() => sessionLive(db, id, now())),
    endSession: (id) => inWords(() => endSession(db, id)),
    endAllSessions: () => inWords(() => endAllSessions(db)),
    issueSignInLink: () => inWords(() => issueSignInLink(db, now())),
    useSignInLink: (nonce) => inWords(() => useSignInLink(db, nonce, now())),
    signInLinkLive: (nonce) => inWords(() => signInLinkLive(db, nonce, now())),
  };
}
