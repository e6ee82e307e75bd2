import { currentContext } from '../http/context.js';
import { input, type AllInput, type InputSource } from './input.js';
import { requestLimit, requestRepeat } from './limits.js';
import {
  DEFAULT_COST,
  hashPassword,
  passwordInfo,
  verifyPassword,
  type PasswordInfo,
} from './password.js';
import { removeParam, toRoute } from './redirect.js';
import type { CourseResponse, RedirectStatus } from '../http/response.js';

/** Hashes a password (bcrypt `$2y$` over HMAC-SHA256 with the configured pepper). */
export function passHash(password: string, cost = DEFAULT_COST): Promise<string> {
  return hashPassword(password, cost, pepper());
}

/** Checks a password against a `$2y$`, `$2b$` or `$2a$` hash. */
export function passVerify(password: string, hash: string): Promise<boolean> {
  return verifyPassword(password, hash, pepper());
}

/**
 * The base of controllers: the spec's helpers as methods (`passHash`, `passVerify`,
 * `requestLimit`, `requestRepeat`, `redirect`, `removeParamsUrl`, `getRequestParams`).
 */
export abstract class Controller {
  /** The hash, or with `info` the hash's algorithm and cost (PHP's `password_get_info`). */
  passHash(password: string, info?: false): Promise<string>;
  passHash(password: string, info: true): Promise<PasswordInfo>;
  async passHash(password: string, info = false): Promise<string | PasswordInfo> {
    const hash = await passHash(password);
    return info ? passwordInfo(hash) : hash;
  }

  passVerify(password: string, hash: string): Promise<boolean> {
    return passVerify(password, hash);
  }

  requestLimit(key: string, limit = 5, seconds = 60): Promise<boolean> {
    return requestLimit(key, limit, seconds);
  }

  requestRepeat(key: string, value: string): Promise<boolean> {
    return requestRepeat(key, value);
  }

  redirect(url: string, code?: RedirectStatus): CourseResponse {
    return toRoute(url, code);
  }

  removeParamsUrl(): boolean {
    return removeParam();
  }

  getRequestParams(): AllInput;
  getRequestParams(index: string, defaultValue?: unknown, ...methods: InputSource[]): unknown;
  getRequestParams(index?: string, defaultValue?: unknown, ...methods: InputSource[]): unknown {
    return index === undefined ? input() : input(index, defaultValue, ...methods);
  }
}

// --- internal ---

function pepper(): string {
  return currentContext()?.options.pepper ?? process.env['COURSE_PEPPER'] ?? '';
}
