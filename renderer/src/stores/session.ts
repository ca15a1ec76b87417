import { create } from 'zustand';
import type { SignInProblem } from '../api/session';

/** Why the page cannot call the core: in headless mode it needs a browser session ('none': it has one). */
export type SessionProblem = SignInProblem | 'ended' | 'disabled' | 'password-changed' | 'access-changed' | 'signed-out';

interface SessionState {
  problem: SessionProblem;
  signedOut: (problem: SessionProblem) => void;
}

export const useSession = create<SessionState>((set) => ({
  problem: 'none',
  signedOut: (problem) => set({ problem }),
}));
