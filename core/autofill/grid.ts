import { z } from 'zod';
import { parseHHMM } from '../domain/time';
import { dayPatternField, durationField, startTimeField } from '../timetable';

/** A standard meeting time: a day pattern, a start and a length. */
export interface Slot {
  day: string;
  start: number;
  duration: number;
}

/** MWF 60-minute sessions on the hour 08:00–16:00; TR 90-minute sessions from 08:00 to 17:00. */
export const STANDARD_SLOTS: Slot[] = [
  ...[8, 9, 10, 11, 12, 13, 14, 15, 16].map((h) => ({ day: 'MWF', start: h * 60, duration: 60 })),
  ...['08:00', '09:30', '11:00', '12:30', '14:00', '15:30', '17:00'].map((t) => ({ day: 'TR', start: parseHHMM(t) ?? 0, duration: 90 })),
];

export const slotOverrideSchema = z
  .array(z.object({ day: dayPatternField, start_time: startTimeField, duration_mins: durationField }))
  .min(1, 'give at least one slot')
  .transform((slots) => slots.map((s): Slot => ({ day: s.day, start: parseHHMM(s.start_time) ?? 0, duration: s.duration_mins })));
