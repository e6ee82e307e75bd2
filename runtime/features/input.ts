import type busboy from 'busboy';
import type qs from 'qs';
import { requireContext } from '../http/context.js';
import { HttpException } from '../http/errors.js';
import type { CourseRequest } from '../http/request.js';
import { vendored } from '../packages.js';

/** A file of a multipart form, held in memory. */
export interface UploadedFile {
  field: string;
  filename: string;
  type: string;
  size: number;
  data: Buffer;
}

/** Form and JSON fields (null-prototype containers), and uploaded files. */
export interface ParsedBody {
  post: Record<string, unknown>;
  files: Record<string, UploadedFile | UploadedFile[]>;
}

/** Where `input()` may look: the query, the body, the uploaded files. */
export type InputSource = 'get' | 'post' | 'file';

/** The most fields a query, a form or a multipart body may hold. */
const FIELD_LIMIT = 1000;

/** The most parts a multipart body may hold: its fields, and files besides. */
const MAX_PARTS = FIELD_LIMIT + 100;

/** The most parameters a media type (or a part's `Content-Disposition`) may name. */
const MAX_PARAMETER_COUNT = 64;

/** The deepest nesting of a JSON body, in arrays and objects. */
const JSON_DEPTH = 256;

/** Default limit of a multipart body, files included: 10 MiB. */
export const DEFAULT_MULTIPART_LIMIT = 10 * 1024 * 1024;

// PHP-style nested fields (`a[b][]=1`) into containers with no prototype, with bounds. An
// index is kept as sent (`a[5]=z` is `a[5]`, as in PHP), one past `arrayLimit` makes the
// array an object, and a deeper level stays part of its key: nothing sent is dropped.
const QS_OPTIONS: qs.IParseOptions = {
  allowPrototypes: false,
  plainObjects: true,
  allowSparse: true,
  depth: 5,
  arrayLimit: 100,
  parameterLimit: FIELD_LIMIT,
};

// The parsers are loaded when a request first needs one: importing `course-router` (every
// server start, every `course` command) does not pay for qs and busboy.
let qsLibrary: typeof qs | undefined;
let busboyLibrary: typeof busboy | undefined;

/**
 * Fields of a query or a urlencoded body (`QS_OPTIONS`). More than `FIELD_LIMIT` fields is a
 * 413, where qs would drop the rest; an empty one (`a=1&&b=2`) is none, and qs is not given it
 * (it counts them against its limit).
 */
function parseFields(text: string): Record<string, unknown> {
  let fields = 0;
  let empty = false;
  for (let start = 0; start <= text.length;) {
    const at = text.indexOf('&', start);
    const end = at === -1 ? text.length : at;
    if (end === start) empty = true;
    else if (++fields > FIELD_LIMIT)
      throw new HttpException(413, `More than ${FIELD_LIMIT} fields`);
    start = end + 1;
  }
  const kept = empty
    ? text
        .split('&')
        .filter((field) => field !== '')
        .join('&')
    : text;
  // A long text's `+` are made spaces at once: the values' own `replace` (and qs's) find none.
  const fieldsText = kept.length < LONG_FIELDS ? kept : plusAsSpace(kept);
  return (
    flatFields(fieldsText) ??
    (qsLibrary ??= vendored<typeof qs>('qs')).parse(fieldsText, QS_OPTIONS)
  );
}

/** A bracket, raw or escaped: the text may nest, qs reads it. */
const BRACKET = /[[\]]|%5[bd]/i;

/**
 * qs's result for fields that cannot nest (no bracket) and each name sent once; otherwise
 * `undefined` (qs reads it). qs drops an empty name and `__proto__`; a value is decoded as
 * qs decodes it (`+` is a space, a malformed escape stays as sent).
 */
function flatFields(text: string): Record<string, unknown> | undefined {
  const fields = Object.create(null) as Record<string, unknown>;
  if (text === '') return fields;
  if (BRACKET.test(text)) return undefined;
  for (const part of text.split('&')) {
    const at = part.indexOf('=');
    const name = decodeField(at === -1 ? part : part.slice(0, at));
    if (name === '' || name === '__proto__') continue;
    if (Object.hasOwn(fields, name)) return undefined;
    fields[name] = at === -1 ? '' : decodeField(part.slice(at + 1));
  }
  return fields;
}

function decodeField(text: string): string {
  const spaced = text.includes('+') ? text.replace(/\+/g, ' ') : text;
  if (!spaced.includes('%')) return spaced;
  try {
    return decodeURIComponent(spaced);
  } catch {
    return spaced;
  }
}

const ENCODER = new TextEncoder();
// A leading U+FEFF is text here, not a byte order mark.
const DECODER = new TextDecoder('utf-8', { ignoreBOM: true });

// From this length, a form's `+` are made spaces byte by byte before it is read (`plusAsSpace`);
// below, each value's own `replace` is faster (by 0.15 µs for a form of three fields).
const LONG_FIELDS = 512;

/**
 * `text` with each `+` a space, as a form or query encodes one, rewritten byte by byte: a regex
 * replace of a megabyte of `+` held the event loop 0.07–0.4 s (Bun, Deno, Node), this 1–8 ms on
 * every runtime. The text is a decoded body or a target: no lone surrogate to lose.
 */
function plusAsSpace(text: string): string {
  if (!text.includes('+')) return text;
  const bytes = ENCODER.encode(text);
  for (let i = 0; i < bytes.length; i++) if (bytes[i] === 43 /* + */) bytes[i] = 32;
  return DECODER.decode(bytes);
}

/** Every source of input at once: `input()` with no index. */
export interface AllInput {
  get: Record<string, unknown>;
  post: Record<string, unknown>;
  file: ParsedBody['files'];
}

/**
 * Reads a request input: with no index, every source; otherwise the
 * first non-blank value of `index` in the query, the body, then the files. With `methods`,
 * each listed source that has the key overrides the one before. A blank or whitespace-only
 * value gives `defaultValue`.
 *
 * @example input('email') ; input('page', '1', 'get') ; input('avatar', null, 'file')
 */
export function input(): AllInput;
export function input(index: string, defaultValue?: unknown, ...methods: InputSource[]): unknown;
export function input(
  index?: string,
  defaultValue: unknown = null,
  ...methods: InputSource[]
): unknown {
  const request = requireContext('input').request;
  if (index === undefined)
    return {
      get: queryOf(request),
      // With no body, empty containers as a body's: no prototype either.
      post: request.parsed?.post ?? (Object.create(null) as Record<string, unknown>),
      file: request.parsed?.files ?? (Object.create(null) as ParsedBody['files']),
    };
  let found: unknown;
  for (const source of methods.length ? methods : SOURCES) {
    const bag = sourceOf(request, source);
    if (!bag || !Object.hasOwn(bag, index) || blank(bag[index])) continue;
    found = bag[index];
    if (methods.length === 0) break;
  }
  // An object of a JSON body leaves once no object of the body has a prototype.
  if (isObject(found) && request.parsed instanceof JsonBody) request.parsed.walk();
  return found === undefined ? defaultValue : found;
}

/**
 * Parses the body by its content type: urlencoded, JSON or multipart; others, and a body in a
 * content coding, give nothing.
 * The result is also the request's `parsed`. Not an `async` function: a form or JSON body is
 * parsed in one `then` of its read.
 */
export function parseBody(request: CourseRequest, multipartLimit: number): Promise<ParsedBody> {
  try {
    // A body in a content coding (gzip…) is never inflated here: the route gets it as sent.
    if (coded(request.getHeader('content-encoding')))
      return Promise.resolve(fields(request, Object.create(null) as Record<string, unknown>));
    const media = request.mediaType();
    if (media === 'application/x-www-form-urlencoded') {
      checkCharset(request.contentType());
      return request.readText((text) => fields(request, parseFields(text)));
    }
    if (media === 'application/json' || JSON_SUFFIX.test(media)) {
      checkCharset(request.contentType());
      return request.readText((text) => (request.parsed = jsonBody(text)));
    }
    if (media === 'multipart/form-data') {
      // The boundary is case-sensitive: busboy gets the header as sent.
      return parseMultipart(request, request.contentType(), multipartLimit).then(
        (parsed) => (request.parsed = parsed),
      );
    }
    return Promise.resolve(fields(request, Object.create(null) as Record<string, unknown>));
  } catch (error) {
    return Promise.reject(error as Error);
  }
}

/** Whether a `Content-Encoding` names a coding: anything but none or `identity`. */
function coded(encoding: string | undefined): boolean {
  const coding = encoding?.trim().toLowerCase();
  return coding !== undefined && coding !== '' && coding !== 'identity';
}

/** The fields of a JSON body's text; a value not an object is `value`. */
function jsonBody(text: string): JsonBody {
  // A long text is measured before it is parsed: a megabyte of `[` took 0.15–0.5 s to parse.
  if (text.length > DEPTH_SCAN_FROM && nestedPast(text, JSON_DEPTH)) throw tooDeep();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // An empty body (or blank) is no fields.
    if (text.trim() === '') return new JsonBody(Object.create(null) as Record<string, unknown>);
    throw new HttpException(400, 'Malformed JSON body');
  }
  if (!isObject(value)) return new JsonBody({ __proto__: null, value });
  const body = new JsonBody(value as Record<string, unknown>, false);
  // A text long enough to nest past `JSON_DEPTH` is walked now: too deep is a 400 before the
  // route runs. A shorter one cannot be: it waits until its objects are handed out.
  if (text.length > 2 * JSON_DEPTH) body.walk();
  return body;
}

/**
 * A JSON body's fields, whose objects lose their prototypes (`nullPrototype`) before any of
 * them is handed out: when `post` is first read, or `input(key)` finds an object. A route that
 * reads only values by name (`input('email')`, through `Object.hasOwn`) never pays for the walk:
 * on Deno, `Object.setPrototypeOf` on a small parsed object costs about what its parse does.
 */
class JsonBody implements ParsedBody {
  readonly files = Object.create(null) as ParsedBody['files'];
  readonly #value: Record<string, unknown>;
  #walked: boolean;

  /** `walked`: `value`'s objects have no prototype already. */
  constructor(value: Record<string, unknown>, walked = true) {
    this.#value = value;
    this.#walked = walked;
  }

  get post(): Record<string, unknown> {
    this.walk();
    return this.#value;
  }

  /** Takes every object's prototype away, once. */
  walk(): void {
    if (this.#walked) return;
    this.#walked = true;
    nullPrototype(this.#value, 0);
  }

  /** As a plain `ParsedBody` would be written. */
  toJSON(): ParsedBody {
    return { post: this.post, files: this.files };
  }

  /** The fields of `parsed` to read an own value of by name: not walked. */
  static fields(parsed: ParsedBody): Record<string, unknown> {
    return #value in parsed ? parsed.#value : parsed.post;
  }
}

/**
 * The media type of a `Content-Type`, lower-case, without its parameters: `application/json`.
 * What is not one type (`application/json, text/plain`: two headers joined) names no format a
 * body is read in.
 */
export function mediaType(contentType: string): string {
  // The type a client sent last is nearly always the one it sends next: compared, not cut,
  // trimmed and lower-cased again.
  if (contentType === lastType) return lastMedia;
  const semicolon = contentType.indexOf(';');
  const media = semicolon === -1 ? contentType : contentType.slice(0, semicolon);
  lastMedia = media.trim().toLowerCase();
  lastType = contentType;
  return lastMedia;
}

let lastType = '';
let lastMedia = '';

/** Whether a media type (`mediaType`'s) is a form's: urlencoded or multipart. */
export function isForm(media: string): boolean {
  return media === 'application/x-www-form-urlencoded' || media === 'multipart/form-data';
}

// A structured syntax suffix (RFC 6839): `application/problem+json`.
const JSON_SUFFIX = /^application\/[!#$%&'*.^_`|~0-9a-z-]+\+json$/;

// The longest header text whose parameters are read: 16 KiB.
const MAX_PARAMETERS = 16 * 1024;

// One parameter of a media type (RFC 9110 §5.6.6): `; name=value`, the value a token or a quoted
// string, which may hold `;` and `=`. Read in turn from the first `;`, linearly.
const PARAMETER =
  /[\t ]*;[\t ]*(?:([!#$%&'*+.^_`|~0-9a-z-]+)=("(?:[^"\\]|\\.)*"|[!#$%&'*+.^_`|~0-9a-z-]*)[\t ]*)?/iy;

/** The parameters of a media type: see `parameters`. */
interface Parameters {
  /** By lower-case name; quoted values unquoted, a charset's lower-case. */
  values: Map<string, string>;
  /** Parameters that cannot be read (`; foo`, an unclosed quote): `values` has those before. */
  unreadable: boolean;
  /** A name given twice with two values (busboy and others keep the first, a proxy may not). */
  twice: string | undefined;
  /** More than `MAX_PARAMETER_COUNT`: unreadable too. */
  tooMany?: true;
}

function parameters(type: string): Parameters {
  const read: Parameters = { values: new Map(), unreadable: false, twice: undefined };
  let at = type.indexOf(';');
  if (at === -1) return read;
  // Past what a header may hold (node:http's bound, and busboy's for a part's header), they are
  // not read: Bun's regex engine takes half a second over one quoted value of 300 KB.
  if (type.length > MAX_PARAMETERS) return { ...read, unreadable: true };
  // A real header names a few (`form-data; name="a"; filename="b"`): thousands in each part's
  // header made a multipart body's parts take a second to read.
  for (let count = 0; at < type.length; count++) {
    if (count > MAX_PARAMETER_COUNT) return { ...read, unreadable: true, tooMany: true };
    PARAMETER.lastIndex = at;
    const match = PARAMETER.exec(type);
    if (match === null) return { ...read, unreadable: true };
    at = PARAMETER.lastIndex;
    if (match[1] === undefined) continue;
    const name = match[1].toLowerCase();
    const quoted = match[2]!.startsWith('"');
    const text = quoted ? match[2]!.slice(1, -1).replace(/\\(.)/g, '$1') : match[2]!;
    const value = name === 'charset' ? text.toLowerCase() : text;
    const before = read.values.get(name);
    if (before !== undefined && before !== value) read.twice ??= name;
    read.values.set(name, before ?? value);
  }
  return read;
}

/** `read`'s values; a `status` error when they cannot be read or a name has two values. */
function readable(read: Parameters, status: number): Map<string, string> {
  if (read.unreadable) throw new HttpException(status, 'Unreadable Content-Type parameters');
  if (read.twice !== undefined)
    throw new HttpException(status, `Two ${read.twice} parameters in Content-Type`);
  return read.values;
}

/**
 * Refuses a form or JSON body that says it is in another charset than UTF-8 (415): it is read as
 * UTF-8, and a value read in the wrong charset would be another value. Parameters that cannot be
 * read, or two charsets, are a 415 too: a proxy could read another charset in them.
 */
function checkCharset(type: string): void {
  if (type.indexOf(';') === -1) return;
  const charset = readable(parameters(type), 415).get('charset');
  if (charset !== undefined && charset !== 'utf-8' && charset !== 'utf8')
    throw new HttpException(415, `Unsupported charset: ${charset.slice(0, 40)}`);
}

/**
 * Refuses (400) a multipart body that busboy would read one way and a proxy another: two
 * `boundary` parameters, or a part with two `Content-Type` lines or with parameters that cannot
 * be read or name two charsets, or with two `Content-Disposition` lines or one naming a
 * parameter twice (two `name`s, two `filename`s): busboy keeps the first of each. A boundary
 * that is no token (`a:b`, which some clients send unquoted) is busboy's to read. Parts are
 * found as busboy finds them: the first delimiter at the start or after a line break, the
 * others after one.
 */
function checkMultipart(type: string, bytes: Buffer): void {
  const outer = parameters(type);
  if (outer.twice === 'boundary')
    throw new HttpException(400, 'Two boundary parameters in Content-Type');
  const boundary = outer.values.get('boundary');
  if (!boundary) return;
  const delimiter = Buffer.from(`\r\n--${boundary}`, 'latin1');
  let at = bytes.subarray(0, delimiter.length - 2).equals(delimiter.subarray(2))
    ? -2
    : bytes.indexOf(delimiter);
  // busboy's bound (`parts`), before any part is read: 10 MiB of empty parts took busboy 0.8 s.
  for (let parts = 0; at !== -1; parts++) {
    if (parts > MAX_PARTS) throw new HttpException(413, 'Too many multipart fields or files');
    const start = at + delimiter.length;
    // `--` after the delimiter closes the body.
    if (bytes[start] === 45 && bytes[start + 1] === 45) return;
    const end = bytes.indexOf(HEAD_END, start);
    if (end === -1) return;
    let types = 0;
    let dispositions = 0;
    for (const line of bytes.toString('latin1', start, end).split('\r\n')) {
      const colon = line.indexOf(':');
      const name = colon === -1 ? '' : line.slice(0, colon).trim().toLowerCase();
      if (name === 'content-disposition') {
        if (++dispositions > 1)
          throw new HttpException(400, 'Two Content-Disposition lines in a multipart part');
        const read = parameters(line.slice(colon + 1));
        // busboy reads every parameter too: thousands in each part took a second to read.
        if (read.tooMany) throw new HttpException(400, 'Too many parameters in a multipart part');
        // `name="a"; name="b"`, `filename="x.php"; filename="x.txt"`: busboy keeps the first.
        const twice = read.twice;
        if (twice !== undefined)
          throw new HttpException(400, `Two ${twice} parameters in a multipart part`);
      }
      if (name !== 'content-type') continue;
      if (++types > 1) throw new HttpException(400, 'Two Content-Type lines in a multipart part');
      // An empty charset names none: busboy would read the part as UTF-8. `x-user-defined` is
      // one Bun's and Deno's `TextDecoder` know and Node's does not: refused on every runtime.
      const charset = readable(parameters(line.slice(colon + 1)), 400).get('charset');
      if (charset === '' || charset === 'x-user-defined')
        throw new HttpException(400, 'Multipart field in an unknown charset');
    }
    at = bytes.indexOf(delimiter, end);
  }
}

const HEAD_END = Buffer.from('\r\n\r\n');

/** The request's parsed body: `post` fields and no files. */
function fields(request: CourseRequest, post: Record<string, unknown>): ParsedBody {
  return (request.parsed = { post, files: Object.create(null) as ParsedBody['files'] });
}

/** The query string as nested fields. */
export function queryOf(request: CourseRequest): Record<string, unknown> {
  return (request.parsedQuery ??= parseFields(request.query));
}

// --- internal ---

const SOURCES: readonly InputSource[] = ['get', 'post', 'file'];

/** The fields of one source: the query is parsed when first asked for. */
function sourceOf(
  request: CourseRequest,
  source: InputSource,
): Record<string, unknown> | undefined {
  if (source === 'post') return request.parsed && JsonBody.fields(request.parsed);
  if (source === 'file') return request.parsed?.files;
  // No query: nothing to parse for a key that cannot be there.
  return source === 'get' && request.query !== '' ? queryOf(request) : undefined;
}

function blank(value: unknown): boolean {
  return (
    value === null || value === undefined || (typeof value === 'string' && value.trim() === '')
  );
}

function isObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null;
}

/**
 * Parsed JSON made unable to reach a prototype, in place: every object's prototype becomes
 * `null` (arrays stay arrays). In place, the objects `JSON.parse` made keep their fast shape: a
 * copy into `Object.create(null)` containers cost three times the parse of 1 MiB of `[{},…]`
 * and three times its memory. Nesting past `JSON_DEPTH` is a 400: deeper, this walk (or an app
 * walking the value) could run out of stack at a depth that depends on the call stack, failing
 * where a shallower call succeeds.
 */
function nullPrototype(value: object, depth: number): object {
  if (depth >= JSON_DEPTH) throw tooDeep();
  if (Array.isArray(value)) {
    for (const item of value as unknown[]) if (isObject(item)) nullPrototype(item, depth + 1);
    return value;
  }
  // First: `for…in` then lists the object's own keys only.
  Object.setPrototypeOf(value, null);
  for (const key in value) {
    const item = (value as Record<string, unknown>)[key];
    if (isObject(item)) nullPrototype(item, depth + 1);
  }
  return value;
}

// Under this many characters, a text nests at most as deep as it is long, and parses fast at
// any depth (16,000 levels, about 5 ms).
const DEPTH_SCAN_FROM = 16 * 1024;

/**
 * Whether a JSON text nests its arrays and objects more than `limit` deep: its brackets counted
 * outside its strings (1 MiB: 1–1.6 ms on Node, Bun and Deno, a quarter of its parse).
 */
function nestedPast(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code === 34 /* " */) {
      // To the string's end: past each escaped character.
      for (i++; i < text.length; i++) {
        const inner = text.charCodeAt(i);
        if (inner === 92 /* \ */) i++;
        else if (inner === 34) break;
      }
    } else if (code === 91 /* [ */ || code === 123 /* { */) {
      if (++depth > limit) return true;
    } else if (code === 93 /* ] */ || code === 125 /* } */) depth--;
  }
  return false;
}

function tooDeep(): HttpException {
  return new HttpException(400, `JSON nested deeper than ${JSON_DEPTH}`);
}

async function parseMultipart(
  request: CourseRequest,
  type: string,
  limit: number,
): Promise<ParsedBody> {
  request.bodyLimit = limit;
  const bytes = Buffer.from(await request.body());
  checkMultipart(type, bytes);
  // Each field as `name=<its index in values>`: qs (or `flatFields`) nests the names, and the
  // values, which may be megabytes, are not escaped and read back (a U+FFFD is nine characters
  // escaped: 10 MiB of them took a second and a half).
  const fields: string[] = [];
  const values: string[] = [];
  const files = Object.create(null) as ParsedBody['files'];
  await new Promise<void>((resolve, reject) => {
    let parser: busboy.Busboy;
    try {
      parser = (busboyLibrary ??= vendored<typeof busboy>('busboy'))({
        headers: { 'content-type': type },
        // A part's name and file name as browsers send them (HTML's form encoding): UTF-8
        // bytes as they are. busboy reads them as latin1 otherwise: `naÃ¯ve.txt`.
        defParamCharset: 'utf8',
        // Names and values as long as the body allows: busboy would otherwise cut them
        // (100 bytes, 1 MiB) without a word, and the app would read a value never sent.
        limits: {
          files: 20,
          fields: FIELD_LIMIT,
          parts: MAX_PARTS,
          fieldNameSize: limit,
          fieldSize: limit,
        },
      });
    } catch {
      reject(new HttpException(400, 'Malformed multipart body'));
      return;
    }
    // A part with no name, or an empty one, is no field: dropped, as PHP drops it.
    parser.on('field', (name: string | undefined, value: string | undefined, info) => {
      if (!name) return;
      if (info.nameTruncated || info.valueTruncated)
        reject(new HttpException(413, 'Multipart field too large'));
      // A part in a charset `TextDecoder` does not know gives no value (busboy as patched in
      // patches/): a 400, never the text "undefined".
      if (value === undefined)
        return reject(new HttpException(400, 'Multipart field in an unknown charset'));
      fields.push(`${escapeName(name)}=${values.push(value) - 1}`);
    });
    parser.on('file', (name: string | undefined, stream, info) => {
      if (!name) return void stream.resume();
      const chunks: Buffer[] = [];
      // A file cut short errors its own stream, then the parser: unheard, it ends the process.
      stream.on('error', () => reject(new HttpException(400, 'Malformed multipart body')));
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        const data = Buffer.concat(chunks);
        const file: UploadedFile = {
          field: name,
          filename: info.filename ?? '',
          type: info.mimeType,
          size: data.length,
          data,
        };
        const key = name.replace(/\[\]$/, '');
        const existing = Object.hasOwn(files, key) ? files[key] : undefined;
        files[key] =
          existing === undefined
            ? name.endsWith('[]')
              ? [file]
              : file
            : [...(Array.isArray(existing) ? existing : [existing]), file];
      });
    });
    parser.on('error', () => reject(new HttpException(400, 'Malformed multipart body')));
    for (const limit of ['filesLimit', 'fieldsLimit', 'partsLimit'] as const) {
      parser.on(limit, () => reject(new HttpException(413, 'Too many multipart fields or files')));
    }
    parser.on('close', () => resolve());
    parser.end(bytes);
  });
  return { post: withValues(parseFields(fields.join('&')), values), files };
}

/** A part's name as a field name of urlencoded text: what that text gives a meaning escaped. */
function escapeName(name: string): string {
  return name.replace(/[%&=+]/g, (char) => encodeURIComponent(char));
}

/** `fields` (from `name=<index>` text) with each index replaced by its value, in place. */
function withValues<T>(fields: T, values: readonly string[]): T {
  if (typeof fields === 'string') return values[Number(fields)] as T;
  if (typeof fields === 'object' && fields !== null)
    for (const key of Object.keys(fields))
      (fields as Record<string, unknown>)[key] = withValues(
        (fields as Record<string, unknown>)[key],
        values,
      );
  return fields;
}
