import { ipAddress } from '../http/address.js';
import { currentContext, requireContext, type StartOptions } from '../http/context.js';
import type { CourseRequest } from '../http/request.js';
import { MemoryStore } from '../stores/memory.js';
import type { Store } from '../stores/types.js';

// How long a requestRepeat value is remembered: the original kept it for the session.
const REPEAT_SECONDS = 24 * 60 * 60;

/**
 * `true` when this client already made `limit` calls for `key` within the window (the
 * original's meaning: "limited"); each allowed call moves the window's end to now + `seconds`.
 * Nothing else happens: the caller decides what a limited client gets.
 *
 * @example if (await requestLimit('login', 5, 60)) return response().httpCode(429).write('Slow down');
 */
export function requestLimit(key: string, limit = 5, seconds = 60): Promise<boolean> {
  // Both stores answer alike only for a limit of one call or more in a window of some time.
  if (!(limit >= 1) || !(seconds > 0))
    throw new RangeError(
      `course: requestLimit(key, limit, seconds) needs a limit of 1 or more and seconds above 0, not ${limit} and ${seconds}`,
    );
  const { request, options } = requireContext('requestLimit');
  return storeOf(options).limit(scoped(request, options, 'limit', key), limit, seconds);
}

/** `true` when this client already sent `value` for `key`; otherwise remembers it. */
export function requestRepeat(key: string, value: string): Promise<boolean> {
  const { request, options } = requireContext('requestRepeat');
  return storeOf(options).repeat(
    scoped(request, options, 'repeat', key),
    String(value),
    REPEAT_SECONDS,
  );
}

/**
 * The client's address: the socket's, or the one `trustProxy` proxies report. `request` is the
 * request being served unless given; `trustProxy` the app's `trustProxy` option unless given
 * (`0` for a request of no app's).
 *
 * @example const ip = clientAddress();
 */
export function clientAddress(request?: CourseRequest, trustProxy?: number): string {
  const context = currentContext();
  const of = request ?? (context ?? requireContext('clientAddress')).request;
  return addressOf(of, trustProxy ?? (context?.request === of ? context.options.trustProxy : 0));
}

// --- internal ---

function addressOf(request: CourseRequest, trustProxy = 0): string {
  if (trustProxy > 0) {
    const forwarded = (request.getHeader('x-forwarded-for') ?? '')
      .split(',')
      .map((a) => a.trim())
      .filter(Boolean);
    const index = forwarded.length - trustProxy;
    // In one spelling (`ipAddress`); an entry that is no IP address is not believed.
    const address = index >= 0 ? ipAddress(forwarded[index]!) : undefined;
    if (address !== undefined) return address;
  }
  return request.remoteAddress ?? '';
}

const defaults = new WeakMap<StartOptions, Store>();

function storeOf(options: StartOptions): Store {
  if (options.store) return options.store;
  let store = defaults.get(options);
  if (!store) defaults.set(options, (store = new MemoryStore()));
  return store;
}

/**
 * The store key of `key` for the request's client: its length first, so that no client and key
 * read as another pair (`1::2` with `3:login`, `1::2:3` with `login`).
 */
function scoped(request: CourseRequest, options: StartOptions, kind: string, key: string): string {
  const client = options.identify
    ? options.identify(request)
    : addressClient(addressOf(request, options.trustProxy));
  if (client === '' && !warnedNoClient) {
    warnedNoClient = true;
    console.warn(
      options.identify
        ? "course: the identify option gave '' for a request, so every such request shares one limit in requestLimit/requestRepeat"
        : NO_ADDRESS,
    );
  }
  return `${kind}:${client.length}:${client}:${key}`;
}

const NO_ADDRESS =
  'course: requestLimit/requestRepeat found no client address, so every such request shares one limit: ' +
  "pass the runtime's address to app.fetch(request, { remoteAddress }) (Bun: server.requestIP(request)?.address, " +
  "Deno: info.remoteAddr.hostname, Workers: request.headers.get('cf-connecting-ip')), or say who the client " +
  'is with the identify option';

/**
 * The client an address limits: an IPv6 address's /56 network, which one subscriber (one home,
 * one office) is given whole, as `express-rate-limit` counts it; an IPv4 address itself, also
 * written in IPv6 (`::7.7.7.7`, `::ffff:0:7.7.7.7`, NAT64's `64:ff9b::7.7.7.7`).
 */
function addressClient(address: string): string {
  const written = address.includes(':') ? ipAddress(address) : address;
  if (written === undefined || !written.includes(':')) return written ?? address;
  const [head = '', tail = ''] = written.split('::');
  const groups = head === '' ? [] : head.split(':');
  const rest = tail === '' ? [] : tail.split(':');
  while (groups.length + rest.length < 8) groups.push('0');
  const g = [...groups, ...rest].map((group) => parseInt(group, 16));
  const prefix = g.slice(0, 6).join(':');
  // `::` and `::1` are no IPv4 address.
  const embedded =
    (prefix === '0:0:0:0:0:0' && g[6]! !== 0) ||
    prefix === `0:0:0:0:${0xffff}:0` ||
    prefix === `${0x64}:${0xff9b}:0:0:0:0`;
  if (embedded) return `${g[6]! >> 8}.${g[6]! & 255}.${g[7]! >> 8}.${g[7]! & 255}`;
  return `${[g[0]!, g[1]!, g[2]!, g[3]! & 0xff00].map((group) => group.toString(16)).join(':')}::/56`;
}

// Said once per process: a server with no client addresses would say it on every request.
let warnedNoClient = false;
