import { mergeHandlers } from './registry';
import { catalogHandlers } from './catalog/handlers';
import { offeringsHandlers } from './offerings/handlers';
import { facultyHandlers } from './faculty/handlers';
import { systemHandlers } from './system/handlers';
import { scheduleHandlers } from './schedule/handlers';
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
  scheduleHandlers,
  predictHandlers,
  dashboardHandlers,
  roomHandlers,
  autofillHandlers,
  departmentHandlers,
  peopleHandlers,
);

export type Handlers = typeof handlers;
export type HandlerName = keyof Handlers;
