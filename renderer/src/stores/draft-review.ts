import { create } from 'zustand';

/**
 * The rows of the draft under review that staff unchecked (left out of Apply), by row key. Kept
 * apart from the page's state so that a toggle redraws only the row and the draft's blocks of
 * that section, never the whole week.
 */
interface DraftReviewState {
  left: ReadonlySet<string>;
  toggle: (key: string, keep: boolean) => void;
  reset: () => void;
}

const NO_KEYS: ReadonlySet<string> = new Set();

export const useDraftReview = create<DraftReviewState>((set) => ({
  left: NO_KEYS,
  toggle: (key, keep) =>
    set(({ left }) => {
      const next = new Set(left);
      if (keep) next.delete(key);
      else next.add(key);
      return { left: next };
    }),
  reset: () => set({ left: NO_KEYS }),
}));
