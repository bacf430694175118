// Where the key check and the log redaction read the live API keys from; a reload replaces `keys`.

import type { ApiKey } from '../../shared/config/security';

export interface KeySource {
  readonly keys: readonly ApiKey[];
}
