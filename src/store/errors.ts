// Typed registry errors: callers branch on `code`, and each message is one sentence a person can
// act on.

/** Start is blocked: the registry is corrupt and nothing valid can replace it. Files are untouched. */
export class RegistryBlockedError extends Error {
  readonly code = 'registry-blocked';
  constructor(readonly file: string) {
    super(`The registry ${file} is corrupt and no valid backup generation remains, so nothing was changed.`);
    this.name = 'RegistryBlockedError';
  }
}

/** This writer is no longer the registry's writer (lease gone or epoch moved on); nothing was committed. */
export class FencedError extends Error {
  readonly code = 'fenced';
  constructor(reason: string) {
    super(`Registry write refused: ${reason}.`);
    this.name = 'FencedError';
  }
}

/** A mutation named a tab the registry does not have; nothing was committed. */
export class TabNotFoundError extends Error {
  readonly code = 'tab-not-found';
  constructor(readonly tabId: string) {
    super(`No tab with id ${tabId} is in the registry.`);
    this.name = 'TabNotFoundError';
  }
}

/** The registry was written by a newer a1 whose schema this one does not know. */
export class RegistryTooNewError extends Error {
  readonly code = 'registry-too-new';
  constructor(readonly found: number, readonly known: number) {
    super(`The registry has schema version ${found} but this a1 knows only up to ${known}; upgrade a1.`);
    this.name = 'RegistryTooNewError';
  }
}

/** A read-only open found a file that is not a readable registry. */
export class RegistryUnreadableError extends Error {
  readonly code = 'registry-unreadable';
  constructor(readonly file: string) {
    super(`The registry ${file} cannot be read; start a1 to check and recover it.`);
    this.name = 'RegistryUnreadableError';
  }
}

/** setMeta was asked to write a key the registry itself maintains. */
export class ReservedMetaKeyError extends Error {
  readonly code = 'reserved-meta-key';
  constructor(readonly key: string) {
    super(`The meta key ${key} is maintained by the registry and cannot be set directly.`);
    this.name = 'ReservedMetaKeyError';
  }
}
