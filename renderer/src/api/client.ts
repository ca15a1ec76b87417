import type { HandlerName, Handlers } from '../../../core/handlers';
import type { InputOf, OutputOf } from '../../../core/registry';
import type { JsonText } from '../../../core/domain/json-text';
import type { FileResult } from '../../../core/domain/file-result';
import { attachedFile, rpcRequest, type FileUpload } from '../../../core/domain/rpc-wire';
import type { CoreEvent } from '../../../core/events';
import type { TermwiseBridge } from '../../../electron/bridge';
import { errorFromCore, errorFromHttp } from './errors';
import { actingDepartment, captureSessionKey, forgetSession, keepSessionKey, sessionKey, type SignInProblem } from './session';
import {
  DEPARTMENT_HEADER,
  SESSION_ENDED_EVENT,
  SESSION_HEADER,
  SESSION_KEY_PARAM,
  SIGNED_OUT_HEADER,
  SIGNED_OUT_REASONS,
  type SignedOutReason,
} from '../../../core/domain/session-wire';
import { ALL_AREAS } from '../../../core/domain/changes';

/** What an operation's result looks like once it reaches the renderer. */
export type Decoded<T> = T extends JsonText<infer U> ? U : T;
export type Result<N extends HandlerName> = Decoded<OutputOf<Handlers[N]>>;
export type Args<N extends HandlerName> = InputOf<Handlers[N]>;

export interface Transport {
  call(operation: string, args: unknown): Promise<unknown>;
  subscribe(listener: (event: CoreEvent) => void): () => void;
  saveFile(file: FileResult): Promise<string | null>;
  readonly kind: 'ipc' | 'http';
  /** Why the page cannot call the core yet (headless mode without a session), or 'none'. */
  readonly signIn: SignInProblem;
  /** Called when the server says the session has ended. */
  onSessionEnded?: (reason: SignedOutReason) => void;
  /** Headless mode: signs in with a login and password (a campus server's people); throws the refusal. */
  signInWithPassword?: (login: string, password: string) => Promise<void>;
  /** Headless mode: ends this page's session. */
  signOut?: () => Promise<void>;
}

function decode(value: unknown): unknown {
  if (value && typeof value === 'object' && typeof (value as { jsonText?: unknown }).jsonText === 'string')
    return JSON.parse((value as { jsonText: string }).jsonText);
  return value;
}

declare global {
  interface Window {
    termwise?: TermwiseBridge;
  }
}

/** Electron: one IPC channel to the same handlers. */
export function ipcTransport(bridge: TermwiseBridge): Transport {
  return {
    kind: 'ipc',
    signIn: 'none',
    async call(operation, args) {
      const result = await bridge.invoke(operation, args);
      if (!result.ok) throw errorFromCore(result.error);
      return decode(result.value);
    },
    subscribe: (listener) => bridge.onEvent((e) => listener(e as CoreEvent)),
    saveFile: (file) => bridge.saveFile(file.filename, file.content),
  };
}

export type { FileUpload };

/** Headless mode: the page served by `npm run serve`, authenticated by its session cookie and key. */
export function httpTransport(base = ''): Transport {
  const signIn = captureSessionKey();
  // The registrar acts in the department they chose (anyone else's calls are in their own).
  const sessionHeaders = (): Record<string, string> => {
    const department = actingDepartment();
    return { [SESSION_HEADER]: sessionKey() ?? '', ...(department === null ? {} : { [DEPARTMENT_HEADER]: department }) };
  };
  const refusal = async (response: Response): Promise<Error> =>
    errorFromHttp(response.status, (await response.json().catch(() => null)) as Parameters<typeof errorFromHttp>[1]);
  const self: Transport = {
    kind: 'http',
    signIn,
    async call(operation, args) {
      const { headers, body } = rpcRequest(args, sessionHeaders());
      const response = await fetch(`${base}/rpc/${operation}`, { method: 'POST', headers, body, credentials: 'same-origin' });
      if (response.status === 401) self.onSessionEnded?.(signedOutReason(response));
      if (!response.ok) throw await refusal(response);
      return (await attachedFile(response)) ?? ((await response.json()) as unknown);
    },
    async signInWithPassword(login, password) {
      const response = await fetch(`${base}/session/signin`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ login, password }),
        credentials: 'same-origin',
      });
      if (!response.ok) throw await refusal(response);
      forgetSession();
      keepSessionKey(((await response.json()) as { key: string }).key);
    },
    async signOut() {
      await fetch(`${base}/session/logout`, { method: 'POST', headers: sessionHeaders(), credentials: 'same-origin' }).catch(() => undefined);
      forgetSession();
    },
    subscribe(listener) {
      // EventSource cannot send headers: the stream takes the session key as a query parameter.
      const source = new EventSource(`${base}/events?${SESSION_KEY_PARAM}=${encodeURIComponent(sessionKey() ?? '')}`);
      source.onmessage = (message: MessageEvent<string>) => listener(JSON.parse(message.data) as CoreEvent);
      // Events sent while the stream was down are lost: once it is back, everything may have changed.
      let opened = false;
      source.onopen = () => {
        if (opened) listener({ type: 'changed', areas: [...ALL_AREAS] });
        opened = true;
      };
      // A stream refused for good (its session ended, its person disabled) closes: one call says why.
      const askWhy = (): void =>
        void fetch(`${base}/me`, { headers: sessionHeaders(), credentials: 'same-origin' }).then(
          (response) => {
            if (response.status === 401) self.onSessionEnded?.(signedOutReason(response));
          },
          () => undefined,
        );
      source.onerror = () => {
        if (source.readyState === EventSource.CLOSED) askWhy();
      };
      // The server ends the stream of a session that ended (a new password, a sign-out elsewhere) saying so: asked at
      // once. The stream itself tries again as usual, so a stream ended by a passing fault comes back.
      source.addEventListener(SESSION_ENDED_EVENT, askWhy);
      return () => source.close();
    },
    async saveFile(file) {
      const url = URL.createObjectURL(new Blob([file.content as BlobPart], { type: file.contentType }));
      const link = document.createElement('a');
      link.href = url;
      link.download = file.filename;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      return Promise.resolve(file.filename);
    },
  };
  return self;
}

/** Why a 401 signed the page out: its person may no longer sign in, or its session ended. */
function signedOutReason(response: Response): SignedOutReason {
  const said = response.headers.get(SIGNED_OUT_HEADER);
  return SIGNED_OUT_REASONS.find((reason) => reason === said) ?? 'session';
}

export const transport: Transport = typeof window !== 'undefined' && window.termwise ? ipcTransport(window.termwise) : httpTransport();

/** The desktop app's link to a campus server (electron/campus-link.ts), or null in a browser. */
export async function campusLink(
  action: 'status' | 'connect' | 'online' | 'offline' | 'disconnect' | 'publish' | 'fetch' | 'sync-counts',
  args: Record<string, unknown> = {},
): Promise<unknown> {
  const bridge = typeof window !== 'undefined' ? window.termwise : undefined;
  if (!bridge) throw new Error('Only the desktop app connects to a campus server');
  const result = await bridge.campus(action, args);
  if (!result.ok) throw errorFromCore(result.error);
  return result.value;
}

/** The one typed entry to the core, whatever the transport. */
export async function call<N extends HandlerName>(operation: N, args: Args<N>): Promise<Result<N>> {
  return (await transport.call(operation, args)) as Result<N>;
}

export async function fileToUpload(file: File): Promise<FileUpload> {
  return { filename: file.name, content: new Uint8Array(await file.arrayBuffer()) };
}
