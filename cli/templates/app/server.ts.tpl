import { Course } from 'course-router';
import routes from './generated/routes.gen.js';

const app = Course.start(routes);
// 127.0.0.1 answers this machine only: HOST=0.0.0.0 in a container or behind a proxy elsewhere.
const host = process.env['HOST'] ?? '127.0.0.1';
const port = Number(process.env['PORT'] ?? 3000);
await app.listen(port, host);
console.log(`Listening on http://${host}:${port}`);

// On SIGTERM (docker stop, Kubernetes) or Ctrl-C: take no new connection, let the requests in
// flight finish (10 s at most: what still runs then is cut), then exit 0.
for (const signal of ['SIGTERM', 'SIGINT'] as const)
  process.once(signal, () => void app.close().then(() => process.exit(0)));
