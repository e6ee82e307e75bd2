import { callSite } from './_location.js';
import { activeRecording } from './recorder.js';
import { ResourceBuilder, RouteBuilder } from './route-builder.js';
import type {
  Callback,
  ClassRef,
  ClassReference,
  GroupAttributes,
  GroupDefinition,
  RouteDefinition,
  RouteKind,
  RouteSettings,
} from './types.js';

/** Records one route; every `Course.<verb>()` ends here. */
export function addRoute(
  kind: RouteKind,
  verbs: string[],
  url: string,
  callback: Callback | ClassRef,
  settings: RouteSettings = {},
): RouteBuilder {
  const recording = activeRecording();
  const loc = callSite();
  const definition: RouteDefinition = {
    kind,
    verbs,
    url,
    callback: { value: callback, loc },
    settings,
    group: recording.current,
    basepath: recording.basepath,
    defaultNamespace: recording.defaultNamespace,
    name: settings.as === undefined ? undefined : { value: settings.as, loc },
    where: settings.where ? [{ value: { ...settings.where }, loc }] : [],
    match: undefined,
    middleware: toList(settings.middleware).map((value) => ({ value, loc })),
    namespace: settings.namespace === undefined ? undefined : { value: settings.namespace, loc },
    prefix: settings.prefix === undefined ? undefined : { value: settings.prefix, loc },
    loc,
  };
  recording.routes.push(definition);
  return kind === 'resource' ? new ResourceBuilder(definition) : new RouteBuilder(definition);
}

/** Runs `fn` with `attributes` applied to every route it registers. */
export function addGroup(
  kind: GroupDefinition['kind'],
  attributes: GroupAttributes,
  fn: (...args: string[]) => void,
  args: string[] = [],
): void {
  const recording = activeRecording();
  const group: GroupDefinition = {
    id: recording.groups.length,
    kind,
    attributes,
    parent: recording.current,
    basepath: recording.basepath,
    loc: callSite(),
  };
  recording.groups.push(group);
  recording.current = group;
  try {
    const result: unknown = fn(...args);
    if (result instanceof Promise) {
      throw new TypeError('course: a group callback must register its routes synchronously');
    }
  } finally {
    recording.current = group.parent;
  }
}

export function setBasepath(path: string): void {
  activeRecording().basepath = path;
}

export function setDefaultNamespace(namespace: string): void {
  activeRecording().defaultNamespace = namespace;
}

export function setError(redirect: boolean, url: string): void {
  activeRecording().router.error = { value: { redirect, url }, loc: callSite() };
}

export function addBootManager(manager: ClassReference): void {
  activeRecording().router.bootManagers.push({ value: manager, loc: callSite() });
}

export function setCsrfVerifier(verifier: ClassReference): void {
  activeRecording().router.csrfVerifier = { value: verifier, loc: callSite() };
}

/** A string or list setting as a list. */
export function toList<T>(value: T | readonly T[] | undefined): T[] {
  if (value === undefined) return [];
  return Array.isArray(value) ? [...(value as readonly T[])] : [value as T];
}
