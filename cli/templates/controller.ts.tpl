import { Controller } from 'course-router';

/** Route it with `Course.get('/%%path%%', '%%name%%@index')`. */
export class %%name%% extends Controller {
  index(): string {
    return '%%name%%';
  }
}
