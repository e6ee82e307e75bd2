/**
 * How a route file names code in a string, read by the build (which resolves the names) and by
 * the generated route table (which lists routes by those names).
 */

/** `'UserController@show'` → `['UserController', 'show']`; `undefined` without a class and a method. */
export function callbackParts(text: string): [className: string, method: string] | undefined {
  const at = text.lastIndexOf('@');
  if (at <= 0 || at === text.length - 1) return undefined;
  return [text.slice(0, at), text.slice(at + 1)];
}

/** `'Middleware\Auth:admin,x'`'s class name and the `:`-separated strings after it. */
export function classRefParts(text: string): { name: string; args: string[] } {
  const [name = '', ...args] = text.split(':');
  return { name, args };
}
