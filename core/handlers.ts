import { mergeHandlers } from './registry';
import { catalogHandlers } from './catalog/handlers';
import { offeringsHandlers } from './offerings/handlers';
import { facultyHandlers } from './faculty/handlers';
import { systemHandlers } from './system/handlers';
import { timetableHandlers } from './timetable/handlers';
import { timetableImportHandlers } from './timetable-import/handlers';
import { timetableExportHandlers } from './timetable-export/handlers';
import { changeLogHandlers } from './change-log/handlers';
import { campusSyncHandlers } from './campus-sync/handlers';
import { predictHandlers } from './predict/handlers';
import { dashboardHandlers } from './dashboard/handlers';
import { roomHandlers } from './rooms/handlers';
import { autofillHandlers } from './autofill/handlers';
import { departmentHandlers } from './departments/handlers';
import { peopleHandlers } from './people/handlers';

/** Every operation of the core, by name: the one table both transports dispatch through. */
export const handlers = mergeHandlers(
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

export type Handlers = typeof handlers;
export type HandlerName = keyof Handlers;
