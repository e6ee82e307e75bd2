import { Course } from 'course-router';
import routes from './generated/routes.gen.ts';

const app = Course.start(routes);
// 127.0.0.1 answers this machine only: HOST=0.0.0.0 in a container or behind a proxy elsewhere.
const server = Bun.serve({
  hostname: process.env['HOST'] ?? '127.0.0.1',
  port: Number(process.env['PORT'] ?? 3000),
  // Seconds Bun gives a request before it closes the connection unanswered (its default, 10,
  // cuts a route that works longer, or an upload still arriving; 255 at most).
  idleTimeout: 60,
  fetch: (request, server) =>
    app.fetch(request, { remoteAddress: server.requestIP(request)?.address }),
});
console.log(`Listening on ${server.url}`);

// On SIGTERM (docker stop, Kubernetes) or Ctrl-C: take no new connection, let the requests in
// flight finish (10 s at most: what still runs then is cut), then exit 0.
const grace = () => new Promise((resolve) => setTimeout(resolve, 10_000));
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.once(signal, () => {
    void Promise.race([server.stop(), grace()]).then(() => process.exit(0));
  });
