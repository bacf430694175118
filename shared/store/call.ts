// How a backend becomes a Store: its table files supply every method (SQLite's answer at once,
// MongoDB's with a promise), and one `call` runs each of them, refusing a closed store and mapping
// "the database cannot serve right now" to StoreUnavailableError (the API answers 500, the crawler
// pauses). Adding a Store method is the interface, one function per backend, and a contract test.

import type { Logger } from '../logger';
import { StoreUnavailableError, type Store } from './types';

type Awaitable<T> = T | Promise<T>;
type StoreMethods = Omit<Store, 'kind'>;

/** Every Store method as a backend's table files write it. */
export type BackendMethods = {
  [K in keyof StoreMethods]: (...args: Parameters<StoreMethods[K]>) => Awaitable<Awaited<ReturnType<StoreMethods[K]>>>;
};

export interface Backend {
  readonly kind: Store['kind'];
  readonly logger: Logger;
  isOpen(): boolean;
  /** A reason to fail this call at once without touching the database (e.g. it was just locked), or null. */
  refuseNow?(): string | null;
  /** The backend's own "cannot serve right now" errors as StoreUnavailableError; others as they are. */
  toStoreError(err: unknown): unknown;
  /**
   * The most a call may take before it fails with StoreUnavailableError (0 or unset = no bound). For
   * a backend that answers asynchronously (MongoDB): the operation goes on in the background and its
   * late result is dropped, so its writes must be ones that are safe to send again.
   */
  deadlineMs?: number;
}

const LABEL: Record<Store['kind'], string> = { sqlite: 'SQLite', mongodb: 'MongoDB' };

async function call<T>(backend: Backend, work: () => Awaitable<T>): Promise<T> {
  if (!backend.isOpen()) throw new StoreUnavailableError(`${LABEL[backend.kind]} store is closed`);
  const refused = backend.refuseNow?.() ?? null;
  if (refused !== null) throw new StoreUnavailableError(refused);
  try {
    const answer = Promise.resolve().then(work);
    return await (backend.deadlineMs ? withDeadline(answer, backend.deadlineMs, backend.kind) : answer);
  } catch (err) {
    const mapped = backend.toStoreError(err);
    if (mapped instanceof StoreUnavailableError) backend.logger.warning({ err }, `${backend.kind} store unavailable`);
    throw mapped;
  }
}

function withDeadline<T>(answer: Promise<T>, ms: number, kind: Store['kind']): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new StoreUnavailableError(`${LABEL[kind]} store unavailable: no answer within ${ms} ms`)), ms);
  });
  // The operation may still fail after the deadline answered for it: nobody is waiting any more.
  answer.catch(() => undefined);
  return Promise.race([answer, late]).finally(() => clearTimeout(timer));
}

/** The Store: every method run through `call`, except close (closing twice is harmless). */
export function assembleStore(backend: Backend, methods: BackendMethods): Store {
  const store: Record<string, unknown> = { kind: backend.kind };
  for (const [name, method] of Object.entries(methods) as [string, (...args: unknown[]) => unknown][]) {
    store[name] = name === 'close' ? async () => method() : (...args: unknown[]) => call(backend, () => method(...args));
  }
  return store as unknown as Store;
}
