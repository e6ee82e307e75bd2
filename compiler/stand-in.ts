import { register } from 'node:module';
import { MessageChannel, type MessagePort } from 'node:worker_threads';

/**
 * Makes the route files of the build whose tsx namespace is `namespace` import a stand-in for
 * each of `files` (the generated module): a controller that imports `url` from it, named by a
 * route as `[UserController, 'show']`, is evaluated before the module exists (the first build),
 * or while the module on disk imports that controller back (an import cycle). The stand-in's
 * `url()` throws: it is for requests, which the build serves none of. Resolves once the loader
 * has the list; the last call's list replaces the one before.
 */
export async function standIn(namespace: string, files: readonly string[]): Promise<void> {
  const port = (channel ??= open());
  const id = ++sent;
  const ready = new Promise<void>((resolve) => {
    const onMessage = (answer: unknown) => {
      if (answer !== id) return;
      port.off('message', onMessage);
      port.unref();
      resolve();
    };
    port.on('message', onMessage);
  });
  port.ref();
  port.postMessage({ id, namespace, files: files.map(withoutExtension) });
  await ready;
}

// --- internal ---

let channel: MessagePort | undefined;
let sent = 0;

/** The loader hooks, registered once per process, and the port that tells them the list. */
function open(): MessagePort {
  const { port1, port2 } = new MessageChannel();
  register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, {
    data: { port: port2 },
    transferList: [port2],
  });
  port1.unref();
  return port1;
}

function withoutExtension(file: string): string {
  return file.replace(/\.[cm]?[jt]sx?$/, '');
}

// Node's module hooks run on their own thread: this is their whole source. A module of the build
// (its URL carries `tsx-namespace=<namespace>`) importing one of the files, by any extension,
// gets the stand-in.
const STAND_IN = `export default undefined;
export function url() {
  throw new Error('course: url() was called while course build evaluated the route files; call it while serving a request');
}
`;
const HOOKS = `import { fileURLToPath } from 'node:url';
let current = { namespace: undefined, files: [] };
export function initialize({ port }) {
  port.on('message', ({ id, namespace, files }) => {
    current = { namespace: 'tsx-namespace=' + namespace, files };
    port.postMessage(id);
  });
  port.unref();
}
const STAND_IN = 'data:text/javascript,' + encodeURIComponent(${JSON.stringify(STAND_IN)});
function standsIn(url) {
  if (!url.startsWith('file:')) return false;
  const file = fileURLToPath(url.replace(/[?#].*$/, '')).replace(/\\.[cm]?[jt]sx?$/, '');
  return current.files.includes(file);
}
export async function resolve(specifier, context, next) {
  const parent = context.parentURL;
  if (parent === undefined || current.namespace === undefined || !parent.includes(current.namespace))
    return next(specifier, context);
  if (/^(?:\\.{1,2}\\/|\\/|file:)/.test(specifier) && standsIn(new URL(specifier, parent).href))
    return { url: STAND_IN, format: 'module', shortCircuit: true };
  const resolved = await next(specifier, context);
  return standsIn(resolved.url) ? { url: STAND_IN, format: 'module', shortCircuit: true } : resolved;
}
`;
