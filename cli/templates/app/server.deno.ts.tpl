import { Course } from 'course-router';
import routes from './generated/routes.gen.ts';

const app = Course.start(routes);
// 127.0.0.1 answers this machine only: HOST=0.0.0.0 in a container or behind a proxy elsewhere.
const server = Deno.serve(
  { hostname: Deno.env.get('HOST') ?? '127.0.0.1', port: Number(Deno.env.get('PORT') ?? 3000) },
  (request, info) => app.fetch(request, { remoteAddress: info.remoteAddr.hostname }),
);

// On SIGTERM (docker stop, Kubernetes) or Ctrl-C: take no new connection, let the requests in
// flight finish (10 s at most: what still runs then is cut), then exit 0.
const grace = () => new Promise((resolve) => setTimeout(resolve, 10_000));
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  Deno.addSignalListener(signal, () => {
    void Promise.race([server.shutdown(), grace()]).then(() => Deno.exit(0));
  });
