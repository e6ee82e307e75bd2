import { createHmac } from 'node:crypto';
import { bcryptCompare, bcryptHash } from './bcrypt.js';

/** bcrypt's default work factor here, as the original's configuration ships it. */
export const DEFAULT_COST = 10;

/** What `passHash(password, true)` and `passwordInfo()` report about a hash. */
export interface PasswordInfo {
  algo: '2y' | null;
  algoName: 'bcrypt' | 'unknown';
  options: { cost?: number };
}

/**
 * Hashes a password: bcrypt (`$2y$`, PHP's `password_hash` format) over HMAC-SHA256 of the
 * password keyed with the pepper. The pre-hash is 64 hex characters, so bcrypt's 72-byte limit
 * never truncates a password and NUL bytes count like any other. The work runs in a worker
 * thread, never on the event loop (`bcrypt.ts`).
 */
export async function hashPassword(
  password: string,
  cost = DEFAULT_COST,
  pepper = '',
): Promise<string> {
  if (!Number.isInteger(cost) || cost < 4 || cost > 31)
    throw new RangeError(`course: bcrypt cost must be 4–31, got ${cost}`);
  const hash = await bcryptHash(prehash(password, pepper), cost);
  return `$2y$${hash.slice(4)}`;
}

/** Checks a password against a `$2y$`, `$2b$` or `$2a$` hash made by `hashPassword` (or PHP). */
export async function verifyPassword(
  password: string,
  hash: string,
  pepper = '',
): Promise<boolean> {
  if (!BCRYPT.test(hash)) return false;
  return bcryptCompare(prehash(password, pepper), `$2b$${hash.slice(4)}`);
}

/** The algorithm and cost of a hash, as PHP's `password_get_info`. */
export function passwordInfo(hash: string): PasswordInfo {
  const m = BCRYPT.exec(hash);
  return m
    ? { algo: '2y', algoName: 'bcrypt', options: { cost: Number(m[1]) } }
    : { algo: null, algoName: 'unknown', options: {} };
}

// --- internal ---

const BCRYPT = /^\$2[aby]\$(\d\d)\$[./A-Za-z0-9]{53}$/;

function prehash(password: string, pepper: string): string {
  return createHmac('sha256', pepper).update(password, 'utf8').digest('hex');
}
