import { toList } from 'course-router/internal';
import type {
  Callback,
  ClassRef,
  GroupDefinition,
  Located,
  Recording,
  RegexLike,
  RouteDefinition,
  SourceLocation,
} from 'course-router/internal';
import type { ResolvedConfig } from './config.js';
import { trimNamespace } from './config.js';
import type { Diagnostics } from './errors.js';
import {
  domainOf,
  groupChain,
  groupReferences,
  prefixRegex,
  whereFor,
  type SitedReference,
} from './groups.js';
import { translateMatch } from './match-regex.js';
import { joinUrl, parsePattern, patternRegex } from './pattern.js';
import { regexValues } from './literal-values.js';
import { embedRegex } from './regex.js';
import { runningRegexes, type RunningRegex } from './regex-gate.js';
import { regexSafety } from './regex-safety.js';
import type { DomainSpec, MatchSpec, ParamSpec, PatternToken } from './types.js';
import { checkRouteWhere } from './where-names.js';

/** The spec's default parameter regex. */
const DEFAULT_PARAM_REGEX = '\\w+';

/** A route with its groups merged; handlers and classes are resolved next. */
export interface RouteDraft {
  verbs: string[];
  url: string;
  tokens: PatternToken[];
  params: ParamSpec[];
  regex: string;
  match: MatchSpec | undefined;
  domain: DomainSpec | undefined;
  name: Located<string> | undefined;
  callback: Located<Callback | ClassRef>;
  /** Absolute namespace for relative `'Class@method'` callbacks. */
  namespace: string;
  middleware: SitedReference[];
  /** Exception handlers, innermost group first. */
  handlers: SitedReference[];
  definition: RouteDefinition;
}

/** A group's prefix and domain, with its own exception handlers or middleware (`normalizeGroups`). */
export interface GroupDraft {
  prefix: string;
  domain: DomainSpec | undefined;
  references: SitedReference[];
}

/** Merges groups into each route: URL, parameters and regexes, name, namespace, middleware. */
export function normalizeRoutes(
  definitions: readonly RouteDefinition[],
  config: ResolvedConfig,
  diagnostics: Diagnostics,
): RouteDraft[] {
  const drafts: RouteDraft[] = [];
  for (const definition of definitions) {
    const draft = normalizeRoute(definition, config, diagnostics);
    if (draft) drafts.push(draft);
  }
  return drafts;
}

/**
 * Groups with exception handlers (`exceptionHandler`) or middleware of their own (`middleware`),
 * most specific first: the deepest, then the longest prefix, then in registration order. What
 * covers a request no route takes: its errors go to the handlers, and its answer has the
 * headers of a `Cors` middleware.
 */
export function normalizeGroups(
  recording: Recording,
  attribute: 'exceptionHandler' | 'middleware',
  diagnostics: Diagnostics,
): GroupDraft[] {
  const out: (GroupDraft & { depth: number; id: number })[] = [];
  for (const group of recording.groups) {
    if (toList(group.attributes[attribute]).length === 0) continue;
    const chain = groupChain(group);
    const prefix = prefixRegex(chain, group.basepath);
    const domain = domainOf(chain, diagnostics);
    if (prefix === undefined || domain === null) continue;
    out.push({
      prefix,
      domain,
      references: groupReferences([group], attribute),
      depth: chain.length,
      id: group.id,
    });
  }
  return out.sort((a, b) => b.depth - a.depth || b.prefix.length - a.prefix.length || a.id - b.id);
}

// --- internal ---

function normalizeRoute(
  def: RouteDefinition,
  config: ResolvedConfig,
  diagnostics: Diagnostics,
): RouteDraft | undefined {
  if (typeof def.url !== 'string') {
    diagnostics.error(
      'E_PATTERN',
      `the URL is ${def.url === null ? 'null' : `a ${typeof def.url}`}, not a string`,
      def.loc,
      "write the URL as a string: Course.get('/path', …)",
    );
    return undefined;
  }
  const groups = groupChain(def.group);
  const url = joinUrl(
    def.basepath,
    ...groups.map((g) => g.attributes.prefix ?? ''),
    def.prefix?.value ?? '',
    def.url,
  );
  const parsed = parsePattern(url);
  if (!parsed.ok) {
    diagnostics.error(parsed.code, parsed.message, def.loc, parsed.hint);
    return undefined;
  }
  const tokens = parsed.tokens;
  const params: ParamSpec[] = [];
  const paramLocs = new Map<string, SourceLocation>();
  for (const token of tokens) {
    if (token.kind !== 'param') continue;
    const chosen = paramRegex(token.name, def, groups);
    const embedded = embedRegex(chosen.value);
    if (!embedded.ok) {
      diagnostics.error(
        'E_REGEX',
        `parameter "${token.name}": ${embedded.reason}`,
        chosen.loc,
        embedded.hint,
      );
      return undefined;
    }
    token.regex = embedded.source;
    if (embedded.caseless) token.caseless = true;
    const { name, optional, regex, caseless } = token;
    params.push({
      name,
      optional,
      regex,
      ...(caseless ? { caseless } : {}),
      ...regexValues(regex, caseless),
    });
    paramLocs.set(token.name, chosen.loc);
  }
  const domain = domainOf(groups, diagnostics);
  const match = matchOf(def, diagnostics);
  if (domain === null || match === null) return undefined;
  const regex = patternRegex(tokens);
  const domainWhere = domain?.params.map((p) => whereFor(p.name, groups)).find((w) => w);
  const running = runningRegexes({
    url,
    tokens,
    regex,
    match,
    domain,
    loc: def.loc,
    paramLoc: (name) => paramLocs.get(name)!,
    domainLoc: domainWhere?.loc ?? def.loc,
    matchLoc: def.match?.loc,
  });
  if (!running.every((r) => safeRegex(def, r, diagnostics))) return undefined;
  for (const param of domain?.params ?? []) {
    if (params.some((p) => p.name === param.name)) {
      diagnostics.error(
        'E_PATTERN',
        `the parameter "{${param.name}}" is both in the domain and in the URL`,
        def.loc,
      );
      return undefined;
    }
  }
  // A resource's where('id') is meant for the routes that have an id: `checkBuilderWhere`.
  if (!def.sharedWhere) checkRouteWhere(def, url, params, domain, diagnostics);
  return {
    verbs: def.verbs,
    url,
    tokens,
    params,
    regex,
    match,
    domain,
    name: routeName(def, groups),
    callback: def.callback,
    namespace: namespaceOf(def, groups, config),
    middleware: [...groupReferences(groups, 'middleware'), ...routeMiddleware(def)],
    handlers: groupReferences([...groups].reverse(), 'exceptionHandler'),
    definition: def,
  };
}

/**
 * Refuses a regex, in the form the matcher runs it, that the checker does not prove safe from
 * catastrophic backtracking, unless the route allows it (`allowUnsafeRegex()`).
 */
function safeRegex(def: RouteDefinition, regex: RunningRegex, diagnostics: Diagnostics): boolean {
  if (def.allowUnsafeRegex || def.settings.unsafeRegex) return true;
  const verdict = regexSafety(regex.source, regex.flags);
  if (verdict.safe) return true;
  // The checker writes its attack string as a JavaScript expression: `'a' + 'b'.repeat(31)`.
  const example = verdict.attack ? ` (slow on the input ${verdict.attack.slice(0, 60)})` : '';
  diagnostics.error(
    'E_REGEX_UNSAFE',
    `${regex.what}: the regex /${regex.source}/${regex.flags}, as the matcher runs it, ${verdict.reason}${example}`,
    regex.loc,
    'rewrite it without nested or overlapping repetition, or call .allowUnsafeRegex() on the route if its input is bounded',
  );
  return false;
}

/** `where` of the route, then of the groups (innermost first), then the default regexes. */
function paramRegex(
  name: string,
  def: RouteDefinition,
  groups: GroupDefinition[],
): Located<RegexLike> {
  for (let i = def.where.length - 1; i >= 0; i--) {
    const where = def.where[i]!;
    if (Object.hasOwn(where.value, name)) return { value: where.value[name]!, loc: where.loc };
  }
  const fromGroup = whereFor(name, groups);
  if (fromGroup) return fromGroup;
  if (def.settings.defaultParameterRegex !== undefined) {
    return { value: def.settings.defaultParameterRegex, loc: def.loc };
  }
  for (let i = groups.length - 1; i >= 0; i--) {
    const regex = groups[i]!.attributes.defaultParameterRegex;
    if (regex !== undefined) return { value: regex, loc: groups[i]!.loc };
  }
  return { value: DEFAULT_PARAM_REGEX, loc: def.loc };
}

function matchOf(def: RouteDefinition, diagnostics: Diagnostics): MatchSpec | undefined | null {
  if (!def.match) return undefined;
  const translated = translateMatch(def.match.value);
  if (translated.ok)
    return {
      source: translated.source,
      flags: translated.flags,
      captures: translated.captures,
      optional: translated.optional,
    };
  diagnostics.error(
    'E_REGEX',
    `setMatch(): ${translated.reason}`,
    def.match.loc,
    translated.hint || undefined,
  );
  return null;
}

/** Group `as` prefixes joined with dots, then the route's own name. */
function routeName(def: RouteDefinition, groups: GroupDefinition[]): Located<string> | undefined {
  if (!def.name) return undefined;
  const prefixes = groups.map((g) => g.attributes.as).filter((as): as is string => !!as);
  return { value: [...prefixes, def.name.value].join('.'), loc: def.name.loc };
}

/** Group namespaces append; one starting with `\` replaces; the default goes before relative ones. */
export function namespaceOf(
  def: RouteDefinition,
  groups: GroupDefinition[],
  config: ResolvedConfig,
): string {
  let current = '';
  let absolute = false;
  for (const ns of [...groups.map((g) => g.attributes.namespace), def.namespace?.value]) {
    if (ns === undefined || ns === '') continue;
    if (ns.startsWith('\\')) {
      current = trimNamespace(ns);
      absolute = true;
    } else {
      current = current ? `${current}\\${trimNamespace(ns)}` : trimNamespace(ns);
    }
  }
  if (absolute) return current;
  const base = trimNamespace(def.defaultNamespace ?? config.defaultNamespace);
  return current ? `${base}\\${current}` : base;
}

/** The route's own middleware: from its settings, then `addMiddleware()` calls. */
function routeMiddleware(def: RouteDefinition): SitedReference[] {
  const fromSettings = toList(def.settings.middleware).length;
  return def.middleware.map((entry, i) => ({
    value: entry.value,
    site:
      i < fromSettings
        ? { loc: entry.loc, kind: 'attribute', attribute: 'middleware', index: i }
        : { loc: entry.loc, kind: 'argument', attribute: '', index: 0 },
  }));
}
