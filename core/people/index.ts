/** What other layers may use of people (besides its repo): who a token, a session or a sign-in acts for. */
export { personNames } from './repo';
export { identityOf, type Identity } from './identity';
export { actorOfPerson, actorOfToken, isPersonalToken, signIn, SIGN_IN_LOCK, type SignInOutcome } from './service';
export { LOGIN_LINK_LIFETIME_MS, SESSION_IDLE_MS, SESSION_LIFETIME_MS, type NewSession, type SessionCheck } from './sessions';
export { PASSWORD_LENGTH } from './passwords';
