import { Course } from 'course-router';
import routes from './generated/routes.gen.js';

const port = Number(process.env['PORT'] ?? 3000);
await Course.start(routes).listen(port);
console.log(`Listening on http://127.0.0.1:${port}`);
