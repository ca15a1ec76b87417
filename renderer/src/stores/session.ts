import { create } from 'zustand';
import type { SignInProblem } from '../api/session';

/** Whether the page may call the core: in headless mode it needs a browser session. */
interface SessionState {
  problem: SignInProblem | 'ended';
  signedOut: (problem: SignInProblem | 'ended') => void;
}

export const useSession = create<SessionState>((set) => ({
  problem: 'none',
  signedOut: (problem) => set({ problem }),
}));
