import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { requireContext } from '../http/context.js';

/**
 * HMAC-SHA256 signatures with the app's `secret`: the first key of the list signs, every key
 * verifies (key rotation: put the new key first, keep the old one until its cookies expired).
 */
export function signature(data: string, key = keys()[0]!): string {
  return createHmac('sha256', key).update(data).digest('base64url');
}

/** Whether `given` is the signature of `data` under one of the app's keys (constant time). */
export function verified(data: string, given: string): boolean {
  for (const key of keys()) if (sameText(signature(data, key), given)) return true;
  return false;
}

/** Whether two strings are equal, in a time that depends only on their lengths. */
export function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

// --- internal ---

let processKeys: readonly string[] | undefined;

/** `Course.start({ secret })`, else `COURSE_SECRET`, else a key made for this process. */
function keys(): readonly string[] {
  const configured = requireContext('secret').options.secret ?? process.env['COURSE_SECRET'];
  if (typeof configured === 'string' && configured !== '') return [configured];
  if (Array.isArray(configured) && configured.length > 0) return configured;
  // Without a configured secret, signatures are valid for this process only.
  if (processKeys === undefined) {
    processKeys = [randomBytes(32).toString('hex')];
    if (process.env['NODE_ENV'] === 'production') console.warn(NO_SECRET);
  }
  return processKeys;
}

const NO_SECRET =
  'course: no secret (Course.start(routes, { secret }) or COURSE_SECRET): CSRF tokens and ' +
  'signed cookies are signed with a key made for this process, so they stop holding when it ' +
  "restarts and are refused by the app's other processes";
