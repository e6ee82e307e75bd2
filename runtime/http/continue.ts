import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * `Expect: 100-continue` under `node:http`: node answers `100 Continue` before any listener runs,
 * unless the server has a `checkContinue` listener. With the listener `continueListener` makes,
 * the 100 is written when the router starts reading the body (`sendContinue`); a request answered
 * before (refused by the CSRF check, a limit, a 404) gets its answer alone, and its connection
 * closes (`refuseContinue`). A request sent with another `Expect` gets node's 417.
 */
export function continueListener(
  handler: (req: IncomingMessage, res: ServerResponse) => void,
): (req: IncomingMessage, res: ServerResponse) => void {
  return (req, res) => {
    (req as Awaiting)[AWAITING] = res;
    handler(req, res);
  };
}

/** Writes the `100 Continue` `req` awaits, if it does: its body is about to be read. */
export function sendContinue(req: IncomingMessage): void {
  const res = (req as Awaiting)[AWAITING];
  if (res === undefined) return;
  (req as Awaiting)[AWAITING] = undefined;
  if (!res.headersSent && !res.destroyed) res.writeContinue();
}

/**
 * Whether `req` is answered with the `100 Continue` it awaits never written: the client holds its
 * body back, or sends it all the same. Its answer closes the connection (node's rule too), once
 * the adapter has dropped the rest of the body as a refused upload's (`dropRest`).
 */
export function refuseContinue(req: IncomingMessage): boolean {
  if ((req as Awaiting)[AWAITING] === undefined) return false;
  (req as Awaiting)[AWAITING] = undefined;
  return true;
}

// --- internal ---

const AWAITING = Symbol('course.awaitingContinue');

interface Awaiting extends IncomingMessage {
  [AWAITING]?: ServerResponse | undefined;
}
