import { contextBridge, ipcRenderer, type IpcRendererEvent } from 'electron';
import { CAMPUS_CHANNEL, EVENT_CHANNEL, INVOKE_CHANNEL, SAVE_CHANNEL, type InvokeResult, type TermwiseBridge } from './bridge';

/** Named functions only: the page never gets ipcRenderer or any other channel. */
const bridge: TermwiseBridge = {
  invoke: (operation, args) => ipcRenderer.invoke(INVOKE_CHANNEL, operation, args) as Promise<InvokeResult>,
  onEvent: (listener) => {
    const handler = (_event: IpcRendererEvent, payload: unknown): void => listener(payload);
    ipcRenderer.on(EVENT_CHANNEL, handler);
    return () => ipcRenderer.removeListener(EVENT_CHANNEL, handler);
  },
  saveFile: (suggestedName, content) => ipcRenderer.invoke(SAVE_CHANNEL, suggestedName, content) as Promise<string | null>,
  campus: (action, args) => ipcRenderer.invoke(CAMPUS_CHANNEL, action, args) as Promise<InvokeResult>,
};

contextBridge.exposeInMainWorld('termwise', bridge);
