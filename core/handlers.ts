import { mergeHandlers } from './registry';
import { catalogHandlers } from './catalog/handlers';
import { offeringsHandlers } from './offerings/handlers';
import { facultyHandlers } from './faculty/handlers';
import { systemHandlers } from './system/handlers';
import { timetableHandlers } from './timetable/handlers';
import { timetableImportHandlers } from './timetable-import/handlers';
import { timetableExportHandlers } from './timetable-export/handlers';
import { changeLogHandlers } from './change-log/handlers';
import { campusSyncHandlers, laptopSyncHandlers } from './campus-sync/handlers';
import { predictHandlers } from './predict/handlers';
import { dashboardHandlers } from './dashboard/handlers';
import { roomHandlers } from './rooms/handlers';
import { autofillHandlers } from './autofill/handlers';
import { departmentHandlers } from './departments/handlers';
import { peopleHandlers } from './people/handlers';

/** Every operation a server serves, by name: the table REST and /rpc dispatch through. */
export const servedHandlers = mergeHandlers(
  systemHandlers,
  catalogHandlers,
  offeringsHandlers,
  facultyHandlers,
  timetableHandlers,
  timetableImportHandlers,
  timetableExportHandlers,
  changeLogHandlers,
  campusSyncHandlers,
  predictHandlers,
  dashboardHandlers,
  roomHandlers,
  autofillHandlers,
  departmentHandlers,
  peopleHandlers,
);

/** The desktop app's own operations (its copy of a campus term), which only the desktop app's calls reach. */
export const desktopOnlyHandlers = laptopSyncHandlers;

/** Every operation of the core, by name: the desktop app's table (IPC), the served ones and its own. */
export const handlers = mergeHandlers(servedHandlers, desktopOnlyHandlers);

export type Handlers = typeof handlers;
export type HandlerName = keyof Handlers;
/** An operation a server serves (a REST route names one of these). */
export type ServedName = keyof typeof servedHandlers;
