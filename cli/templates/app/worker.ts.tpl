import { Course } from 'course-router';
import routes from './generated/routes.gen.ts';

const app = Course.start(routes);

export default {
  fetch: (request: Request) =>
    app.fetch(request, { remoteAddress: request.headers.get('cf-connecting-ip') ?? undefined }),
};
