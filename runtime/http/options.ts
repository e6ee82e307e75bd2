import type { StartOptions } from './context.js';
import { suggestion } from '../dsl/near.js';

/**
 * Throws, naming every problem, when `Course.start()`'s options hold a key Course does not know
 * or a value of the wrong kind: a server started with `{ bodyLimt: … }` would otherwise run
 * with the default, and nothing type-checks the options when the app runs without tsc.
 */
export function checkOptions(options: unknown): void {
  if (options === undefined) return;
  if (typeof options !== 'object' || options === null || Array.isArray(options))
    throw new TypeError('course: the options of Course.start() are not an object');
  const problems: string[] = [];
  for (const [key, value] of Object.entries(options)) {
    if (!Object.hasOwn(KINDS, key)) {
      problems.push(
        `"${key}" is not an option (${suggestion(key, Object.keys(KINDS), 'options')})`,
      );
      continue;
    }
    const kind = KINDS[key as keyof StartOptions];
    if (value !== undefined && !kind.test(value)) problems.push(`"${key}" must be ${kind.what}`);
  }
  if (problems.length > 0) throw new TypeError(`course: Course.start(): ${problems.join('; ')}`);
}

// --- internal ---

interface Kind {
  what: string;
  test: (value: unknown) => boolean;
}

const boolean: Kind = { what: 'true or false', test: (v) => typeof v === 'boolean' };
const text: Kind = { what: 'a string', test: (v) => typeof v === 'string' };
const fn: Kind = { what: 'a function', test: (v) => typeof v === 'function' };
const size: Kind = {
  what: 'a whole number above 0',
  test: (v) => Number.isSafeInteger(v) && (v as number) > 0,
};

const KINDS: Record<keyof StartOptions, Kind> = {
  debug: boolean,
  onError: fn,
  secret: {
    what: 'a string, or a non-empty list of non-empty strings',
    test: (v) =>
      typeof v === 'string' ||
      (Array.isArray(v) && v.length > 0 && v.every((k) => typeof k === 'string' && k !== '')),
  },
  maxParamLength: size,
  bodyLimit: size,
  multipartLimit: size,
  bodyMemoryLimit: size,
  requestTimeout: size,
  store: {
    what: 'a store (MemoryStore, RedisStore …)',
    test: (v) => typeof v === 'object' && v !== null,
  },
  identify: fn,
  trustProxy: {
    what: 'a whole number, 0 or more',
    test: (v) => Number.isSafeInteger(v) && (v as number) >= 0,
  },
  pepper: text,
  requestLog: {
    what: 'true, false or a logger ({ info, error })',
    test: (v) =>
      typeof v === 'boolean' ||
      (typeof v === 'object' &&
        v !== null &&
        typeof (v as { info?: unknown }).info === 'function' &&
        typeof (v as { error?: unknown }).error === 'function'),
  },
  compress: {
    what: "true, false or { threshold: a whole number, encodings: ['br', 'gzip'] }",
    test: (v) => {
      if (typeof v === 'boolean') return true;
      if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
      const { threshold, encodings, ...rest } = v as Record<string, unknown>;
      return (
        Object.keys(rest).length === 0 &&
        (threshold === undefined ||
          (Number.isSafeInteger(threshold) && (threshold as number) >= 0)) &&
        (encodings === undefined ||
          (Array.isArray(encodings) && encodings.every((e) => e === 'br' || e === 'gzip')))
      );
    },
  },
  allowedHosts: {
    what: "a list of host names, '.example.com' or '*' (no port, no scheme)",
    test: (v) =>
      Array.isArray(v) &&
      v.every(
        (h) =>
          typeof h === 'string' &&
          h.replace(/^\./, '') !== '' &&
          !h.includes('/') &&
          (h.startsWith('[') ? h.endsWith(']') : !h.includes(':')),
      ),
  },
  redirectHosts: {
    what: 'a list of host names',
    test: (v) => Array.isArray(v) && v.every((h) => typeof h === 'string'),
  },
};
