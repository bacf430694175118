// Handles: the cache of @handle → channel id, and the handles the platform said do not exist.

/** Cached handle lookups (lower-cased, without `@`). */
export interface HandleStore {
  /** Cached channel id for a lower-cased handle (without `@`). */
  getHandle(handle: string): Promise<string | null>;
  putHandle(handle: string, channelId: string, now: Date): Promise<void>;
  /** Remember that the platform has no channel with this handle (asked at `now`). */
  putUnknownHandle(handle: string, now: Date): Promise<void>;
  /**
   * Whether the platform said within UNKNOWN_HANDLE_TTL_MS before `now` that the handle does not
   * exist: the API answers 404 without asking the platform again.
   */
  isUnknownHandle(handle: string, now: Date): Promise<boolean>;
}
