import { suggestion } from 'course-router/internal';
import type { GroupDefinition, Located, RegexLike, RouteDefinition } from 'course-router/internal';
import type { Diagnostics } from './errors.js';
import { groupChain } from './groups.js';
import { joinUrl, parsePattern } from './pattern.js';
import type { DomainSpec, ParamSpec } from './types.js';

/**
 * A route's `where()` naming a parameter its URL does not have is an error: the constraint is
 * ignored, and a misspelt name (`ID` for `id`) would leave the parameter unguarded. A domain
 * parameter takes its constraint from the group's `where`, never the route's.
 */
export function checkRouteWhere(
  def: RouteDefinition,
  url: string,
  params: readonly ParamSpec[],
  domain: DomainSpec | undefined,
  diagnostics: Diagnostics,
): void {
  checkNames(def.where, {
    names: params.map((p) => p.name),
    domain: domain && { pattern: domain.pattern, names: domain.params.map((p) => p.name) },
    notOne: `which is not a parameter of ${JSON.stringify(url)}`,
    none: 'the URL has no parameters: leave the where() out',
    diagnostics,
  });
}

/**
 * A group's `where` constrains whichever of its routes have the parameter; a name none of
 * them (nor its prefix or domain) has is a warning at the group, most likely a misspelling.
 */
export function checkGroupWhere(
  groups: readonly GroupDefinition[],
  routes: readonly { definition: RouteDefinition; params: ParamSpec[]; domain?: DomainSpec }[],
  diagnostics: Diagnostics,
): void {
  const known = new Map<GroupDefinition, Set<string>>();
  const add = (group: GroupDefinition, names: readonly string[]) => {
    const set = known.get(group) ?? new Set<string>();
    for (const name of names) set.add(name);
    known.set(group, set);
  };
  for (const route of routes) {
    const names = [...route.params, ...(route.domain?.params ?? [])].map((p) => p.name);
    for (const group of groupChain(route.definition.group)) add(group, names);
  }
  for (const group of groups) {
    const where = group.attributes.where;
    if (!where) continue;
    add(group, [
      ...placeholders(joinUrl(group.attributes.prefix ?? ''), 'path'),
      ...placeholders(group.attributes.domain ?? '', 'host'),
    ]);
    const names = [...known.get(group)!];
    for (const name of Object.keys(where)) {
      if (names.includes(name)) continue;
      diagnostics.warn(
        'E_SETTING',
        `the group's where names "${name}", which none of its routes has`,
        group.loc,
        names.length > 0
          ? suggestion(name, names, 'parameters')
          : 'its routes have no parameters: leave it out',
      );
    }
  }
}

/**
 * The routes one `resource()` or `controller()` expands into share its `where()`: a name none
 * of them has (a misspelt `ID` for `id`) is an error at the call, as on a single route.
 */
export function checkBuilderWhere(
  def: RouteDefinition,
  routes: readonly RouteDefinition[],
  diagnostics: Diagnostics,
): void {
  if (def.where.length === 0 || routes.length === 0 || typeof def.url !== 'string') return;
  const groups = groupChain(def.group);
  const all = routes.map((r) =>
    joinUrl(
      def.basepath,
      ...groups.map((g) => g.attributes.prefix ?? ''),
      def.prefix?.value ?? '',
      r.url,
    ),
  );
  const urls = [...new Set(all)];
  const names = [...new Set(urls.flatMap((url) => placeholders(url, 'path')))];
  const domain = [...groups].reverse().find((g) => g.attributes.domain !== undefined);
  const builder = def.kind === 'controller' ? 'controller' : 'resource';
  const pattern = domain?.attributes.domain;
  checkNames(def.where, {
    names,
    domain: pattern === undefined ? undefined : { pattern, names: placeholders(pattern, 'host') },
    notOne: `which is a parameter of none of the ${builder}'s routes (${urls.join(', ')})`,
    none: 'its URLs have no parameters: leave the where() out',
    diagnostics,
  });
}

// --- internal ---

/** Each name of `where` that is not one of `names`: an error at its call. */
function checkNames(
  wheres: readonly Located<Record<string, RegexLike>>[],
  check: {
    names: readonly string[];
    domain: { pattern: string; names: readonly string[] } | undefined;
    notOne: string;
    none: string;
    diagnostics: Diagnostics;
  },
): void {
  const { names, domain, diagnostics } = check;
  for (const where of wheres) {
    for (const name of Object.keys(where.value)) {
      if (names.includes(name)) continue;
      const inDomain = domain?.names.includes(name);
      diagnostics.error(
        'E_SETTING',
        inDomain
          ? `where() names "${name}", a parameter of the domain ${JSON.stringify(domain!.pattern)}, which a route's where() does not constrain`
          : `where() names "${name}", ${check.notOne}`,
        where.loc,
        inDomain
          ? `constrain it in the group: where: { ${name}: … }`
          : names.length > 0
            ? suggestion(name, names, 'parameters')
            : check.none,
      );
    }
  }
}

function placeholders(pattern: string, kind: 'path' | 'host'): string[] {
  const parsed = parsePattern(pattern, kind);
  if (!parsed.ok) return [];
  return parsed.tokens.flatMap((t) => (t.kind === 'param' ? [t.name] : []));
}
