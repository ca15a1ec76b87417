import { useState } from 'react';
import { call, fileToUpload, transport } from '../api/client';
import { useLive } from '../api/live';
import type { Term, TimetableSettings } from '../api/wire';
import { useDraft } from '../lib/use-draft';
import { notifyDone, notifyError } from '../lib/notify';
import { useScheduleView } from '../stores/schedule';
import { termLabel } from '../../../core/domain/terms';

/** The Settings screen's state and actions: where the data lives, the API token, backups. */
export function useSettingsPage() {
  const info = useLive('settings-info', {});
  const [confirmingRegenerate, setConfirmingRegenerate] = useState(false);
  return {
    info: info.data ?? null,
    error: info.error,
    confirmingRegenerate,
    askToRegenerate: () => setConfirmingRegenerate(true),
    keepToken: () => setConfirmingRegenerate(false),
    /** A new token; the one shown loads again on the change event. */
    regenerate: async (): Promise<void> => {
      setConfirmingRegenerate(false);
      try {
        await call('settings-regenerate-token', {});
        notifyDone('Scripts must use the new token from now on.', 'Token regenerated');
      } catch (e) {
        notifyError(e);
      }
    },
    backup: async (): Promise<void> => {
      try {
        await transport.saveFile(await call('database-backup', {}));
      } catch (e) {
        notifyError(e, 'Backup failed');
      }
    },
    restore: async (file: File | null): Promise<void> => {
      if (!file) return;
      try {
        await call('database-restore', { file: await fileToUpload(file) });
        notifyDone(`Restored from ${file.name}.`, 'Database restored');
      } catch (e) {
        notifyError(e, 'Restore failed');
      }
    },
    loadSample: async (): Promise<void> => {
      try {
        await call('sample-load', {});
        notifyDone('Sample data imported.');
      } catch (e) {
        notifyError(e);
      }
    },
  };
}

const timetableForm = (settings: TimetableSettings): { term: Term; travel: number | string } => ({
  term: settings.current_term,
  travel: settings.travel_minutes,
});

/** The timetable settings form: the current term and the travel time between campuses, as stored until edited. */
export function useTimetableSettings() {
  const settings = useLive('schedule-settings', {}).data ?? null;
  const form = useDraft(settings, timetableForm);
  return {
    settings,
    values: form.values,
    edit: form.edit,
    save: async (): Promise<void> => {
      if (!form.values) return;
      const { term, travel } = form.values;
      try {
        await call('schedule-settings-update', { current_term: term, travel_minutes: Number(travel) });
        form.saved();
        // The scheduler opens on the new current term.
        useScheduleView.getState().showTerm(term);
        notifyDone(`New entries go to ${termLabel(term)}; instructors need ${Number(travel)} minutes between campuses.`, 'Timetable settings saved');
      } catch (e) {
        notifyError(e, 'Settings not saved');
      }
    },
  };
}
