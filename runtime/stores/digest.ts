import { createHash } from 'node:crypto';

/** Longest key a store keeps as it is; a longer one is kept as its digest. */
export const MAX_KEY_LENGTH = 256;

/**
 * SHA-256 of `text`, base64url (43 characters): what a store keeps in place of a compared
 * value, so that the memory or Redis a client costs does not grow with what it sends.
 */
export function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}

/**
 * `key` as a store keeps it. Keys hold the client's identity, which a trusted proxy header or
 * an `identify` function may make as long as a request head: a long key is replaced by its
 * digest (not cut, which would let two clients share an entry).
 */
export function storeKey(key: string): string {
  return key.length <= MAX_KEY_LENGTH ? key : `#${digest(key)}`;
}
