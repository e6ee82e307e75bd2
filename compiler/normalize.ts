import { toList } from '../runtime/dsl/register.js';
import type {
  Callback,
  ClassRef,
  ClassReference,
  GroupDefinition,
  Located,
  RegexLike,
  RouteDefinition,
  SourceLocation,
} from '../runtime/dsl/types.js';
import type { ResolvedConfig } from './config.js';
import { trimNamespace } from './config.js';
import type { Diagnostics } from './errors.js';
import { joinUrl, parsePattern, patternRegex } from './pattern.js';
import { embedRegex } from './regex.js';
import type { ParamSpec, PatternToken } from './types.js';

/** The spec's default parameter regex. */
const DEFAULT_PARAM_REGEX = '\\w+';

/** A route with its groups merged; handlers and middleware are resolved next. */
export interface RouteDraft {
  index: number;
  verbs: string[];
  url: string;
  tokens: PatternToken[];
  params: ParamSpec[];
  regex: string;
  name: Located<string> | undefined;
  callback: Located<Callback | ClassRef>;
  /** Absolute namespace for relative `'Class@method'` callbacks. */
  namespace: string;
  middleware: Located<ClassReference>[];
  /** Where each middleware value sits: group attribute or route call, and its list index. */
  middlewareSites: MiddlewareSite[];
  definition: RouteDefinition;
}

/** How to find a middleware value in the source: the call, and where in its arguments. */
export interface MiddlewareSite {
  loc: SourceLocation;
  /** `attribute`: in a `middleware` setting of the call's first object argument. */
  kind: 'attribute' | 'argument';
  /** Position in the attribute's list (attribute) or argument index (argument). */
  index: number;
}

/** Merges groups into each route: URL, parameters and regexes, name, namespace, middleware. */
export function normalizeRoutes(
  definitions: readonly RouteDefinition[],
  config: ResolvedConfig,
  diagnostics: Diagnostics,
): RouteDraft[] {
  const drafts: RouteDraft[] = [];
  for (const definition of definitions) {
    const draft = normalizeRoute(definition, drafts.length, config, diagnostics);
    if (draft) drafts.push(draft);
  }
  return drafts;
}

// --- internal ---

function normalizeRoute(
  def: RouteDefinition,
  index: number,
  config: ResolvedConfig,
  diagnostics: Diagnostics,
): RouteDraft | undefined {
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
    params.push({ name: token.name, optional: token.optional, regex: embedded.source });
  }
  warnUnknownWhere(def, params, diagnostics);
  return {
    index,
    verbs: def.verbs,
    url,
    tokens,
    params,
    regex: patternRegex(tokens),
    name: routeName(def, groups),
    callback: def.callback,
    namespace: namespaceOf(def, groups, config),
    ...middlewareOf(def, groups),
    definition: def,
  };
}

/** Outermost group first. */
function groupChain(group: GroupDefinition | undefined): GroupDefinition[] {
  const chain: GroupDefinition[] = [];
  for (let g = group; g; g = g.parent) chain.unshift(g);
  return chain;
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
  for (let i = groups.length - 1; i >= 0; i--) {
    const where = groups[i]!.attributes.where;
    if (where && Object.hasOwn(where, name)) return { value: where[name]!, loc: groups[i]!.loc };
  }
  if (def.settings.defaultParameterRegex !== undefined) {
    return { value: def.settings.defaultParameterRegex, loc: def.loc };
  }
  for (let i = groups.length - 1; i >= 0; i--) {
    const regex = groups[i]!.attributes.defaultParameterRegex;
    if (regex !== undefined) return { value: regex, loc: groups[i]!.loc };
  }
  return { value: DEFAULT_PARAM_REGEX, loc: def.loc };
}

function warnUnknownWhere(
  def: RouteDefinition,
  params: ParamSpec[],
  diagnostics: Diagnostics,
): void {
  for (const where of def.where) {
    for (const name of Object.keys(where.value)) {
      if (!params.some((p) => p.name === name)) {
        diagnostics.warn(
          'E_SETTING',
          `where() names "${name}", which is not a parameter of ${JSON.stringify(def.url)}`,
          where.loc,
        );
      }
    }
  }
}

/** Group `as` prefixes joined with dots, then the route's own name. */
function routeName(def: RouteDefinition, groups: GroupDefinition[]): Located<string> | undefined {
  if (!def.name) return undefined;
  const prefixes = groups.map((g) => g.attributes.as).filter((as): as is string => !!as);
  return { value: [...prefixes, def.name.value].join('.'), loc: def.name.loc };
}

/** Group namespaces append; one starting with `\` replaces; the default goes before relative ones. */
function namespaceOf(
  def: RouteDefinition,
  groups: GroupDefinition[],
  config: ResolvedConfig,
): string {
  let current = '';
  let absolute = false;
  const chain = [...groups.map((g) => g.attributes.namespace), def.namespace?.value];
  for (const ns of chain) {
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

/** Group middleware (outermost first, in list order), then the route's own. */
function middlewareOf(
  def: RouteDefinition,
  groups: GroupDefinition[],
): Pick<RouteDraft, 'middleware' | 'middlewareSites'> {
  const middleware: Located<ClassReference>[] = [];
  const middlewareSites: MiddlewareSite[] = [];
  for (const group of groups) {
    toList(group.attributes.middleware).forEach((value, index) => {
      middleware.push({ value, loc: group.loc });
      middlewareSites.push({ loc: group.loc, kind: 'attribute', index });
    });
  }
  const fromSettings = toList(def.settings.middleware).length;
  def.middleware.forEach((entry, i) => {
    middleware.push(entry);
    middlewareSites.push(
      i < fromSettings
        ? { loc: entry.loc, kind: 'attribute', index: i }
        : { loc: entry.loc, kind: 'argument', index: 0 },
    );
  });
  return { middleware, middlewareSites };
}
