import type { ReactNode } from 'react';

/** A form that stays on the page: submitting (a button or Enter) runs `onSubmit` instead of loading a page. */
export function SubmitForm({ label, onSubmit, children }: { label?: string; onSubmit: () => unknown; children: ReactNode }) {
  return (
    <form
      aria-label={label}
      onSubmit={(event) => {
        event.preventDefault();
        void onSubmit();
      }}
    >
      {children}
    </form>
  );
}
