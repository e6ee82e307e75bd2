import { suggestion } from 'course-router/internal';
import { Node } from './_ts-morph.js';
import type { ClassRef, ResourceAction, RouteDefinition } from 'course-router/internal';
import { findClass, parses } from './classes.js';
import type { ResolvedConfig } from './config.js';
import type { Diagnostics } from './errors.js';
import { groupChain } from './groups.js';
import { namespaceOf } from './normalize.js';
import type { FoundClass, SourceIndex } from './source-index.js';
import { checkBuilderWhere } from './where-names.js';

/**
 * The verbs and URL suffix of each of the seven resource routes (CONTRACT 5.5), by the action
 * `ResourceAction` names (tsc holds the two to the same names), in an order where `create` is
 * not taken for an id.
 */
const ROUTES: { readonly [A in ResourceAction]: readonly [verbs: string[], suffix: string] } = {
  index: [['GET'], ''],
  create: [['GET'], '/create'],
  store: [['POST'], ''],
  show: [['GET'], '/{id}'],
  edit: [['GET'], '/{id}/edit'],
  update: [['PUT', 'PATCH'], '/{id}'],
  destroy: [['DELETE'], '/{id}'],
};
const RESOURCE = Object.entries(ROUTES).map(
  ([action, [verbs, suffix]]) => [action, verbs, suffix] as const,
);

// Other words for the actions, which a misspelling's distance does not reach.
const ACTION_WORDS: Record<string, string> = {
  delete: 'destroy',
  remove: 'destroy',
  new: 'create',
  list: 'index',
  save: 'store',
};

const IMPLICIT = /^(get|post|put|patch|delete|options|any)([A-Z]\w*)$/;

/**
 * Expands `resource()` and `controller()` into plain routes, at build time. A resource route
 * whose method the controller lacks is left out with a warning (a controller that cannot be
 * found is an error: `resolve`); an implicit controller gets
 * one route per own method named `<verb><Segment>`, its parameters as path parameters.
 */
export function expandRoutes(
  definitions: readonly RouteDefinition[],
  config: ResolvedConfig,
  index: SourceIndex,
  diagnostics: Diagnostics,
): RouteDefinition[] {
  return definitions.flatMap((def) => {
    if (def.kind === 'route') return [def];
    const routes =
      def.kind === 'resource'
        ? expandResource(def, diagnostics)
        : expandController(def, config, index, diagnostics);
    checkBuilderWhere(def, routes, diagnostics);
    return routes;
  });
}

// --- internal ---

function expandResource(def: RouteDefinition, diagnostics: Diagnostics): RouteDefinition[] {
  const base = def.name?.value ?? def.url.replace(/^\/+|\/+$/g, '').replace(/\//g, '.');
  const picked = pickedActions(def, diagnostics);
  return RESOURCE.filter(([action]) => picked.has(action)).map(([action, verbs, suffix]) => ({
    ...def,
    kind: 'route',
    verbs,
    url: def.url.replace(/\/+$/, '') + suffix,
    callback: { value: methodCallback(def.callback.value, action), loc: def.callback.loc },
    name: { value: base ? `${base}.${action}` : action, loc: def.name?.loc ?? def.loc },
    optionalMethod: true,
    sharedWhere: true,
  }));
}

/** The actions `only()` or `except()` leave a resource; an unknown name is an error. */
function pickedActions(def: RouteDefinition, diagnostics: Diagnostics): Set<string> {
  const actions = RESOURCE.map(([action]) => action);
  if (def.actions === undefined) return new Set(actions);
  const { value, loc } = def.actions;
  for (const name of value.names.map(String)) {
    if (!actions.includes(name))
      diagnostics.error(
        'E_SETTING',
        `"${name}" is no resource action`,
        loc,
        Object.hasOwn(ACTION_WORDS, name)
          ? `did you mean ${ACTION_WORDS[name]}?`
          : suggestion(name, actions, 'actions'),
      );
  }
  const named = new Set(value.names);
  const picked = actions.filter((action) => named.has(action) === value.only);
  if (picked.length === 0)
    diagnostics.error(
      'E_SETTING',
      `${value.only ? 'only()' : 'except()'} leaves the resource no route`,
      loc,
      value.only ? `name the actions to route: ${actions.join(', ')}` : 'leave out the resource',
    );
  return new Set(picked);
}

function expandController(
  def: RouteDefinition,
  config: ResolvedConfig,
  index: SourceIndex,
  diagnostics: Diagnostics,
): RouteDefinition[] {
  const found = controllerClass(def, config, index, diagnostics);
  if (!found || !Node.isClassDeclaration(found.node)) return [];
  const routes: RouteDefinition[] = [];
  for (const method of found.node.getMethods()) {
    if (method.isStatic() || method.hasModifier('private') || method.hasModifier('protected'))
      continue;
    const m = IMPLICIT.exec(method.getName());
    if (!m) continue;
    const segment = m[2]!.toLowerCase();
    const params = method
      .getParameters()
      .map(
        (p) =>
          `/{${p.getName()}${p.isOptional() || p.hasInitializer() || p.isRestParameter() ? '?' : ''}}`,
      );
    const path = segment === 'index' ? '' : `/${segment}`;
    routes.push({
      ...def,
      kind: 'route',
      verbs: m[1] === 'any' ? ['*'] : [m[1]!.toUpperCase()],
      url: def.url.replace(/\/+$/, '') + path + params.join(''),
      callback: {
        value: methodCallback(def.callback.value, method.getName()),
        loc: def.callback.loc,
      },
      name: def.name ? { value: `${def.name.value}.${segment}`, loc: def.name.loc } : undefined,
      sharedWhere: true,
    });
  }
  if (routes.length === 0) {
    diagnostics.warn(
      'E_METHOD',
      `controller ${found.name} has no methods named like getIndex or postSave`,
      def.loc,
    );
  }
  return routes;
}

function methodCallback(
  controller: RouteDefinition['callback']['value'],
  method: string,
): RouteDefinition['callback']['value'] {
  return typeof controller === 'string'
    ? `${controller}@${method}`
    : ([controller as ClassRef, method] as const);
}

function controllerClass(
  def: RouteDefinition,
  config: ResolvedConfig,
  index: SourceIndex,
  diagnostics: Diagnostics,
): FoundClass | undefined {
  const value = def.callback.value;
  if (typeof value === 'string') {
    const fqn = value.startsWith('\\')
      ? value.slice(1)
      : `${namespaceOf(def, groupChain(def.group), config)}\\${value}`;
    return findClass(fqn, def.loc, config, index, diagnostics);
  }
  const argument = index.callAt(def.loc)?.getArguments()[1];
  const found = argument && index.classOf(argument);
  if (!found)
    diagnostics.error(
      'E_CLASS',
      'the controller must be an exported class imported by the route file',
      def.loc,
    );
  return found && parses(found.import.file, index, diagnostics) ? found : undefined;
}
