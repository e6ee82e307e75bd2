import { Controller, type ResourceController } from 'course-router';

/** Route it with `Course.resource('%%path%%', '%%name%%')`. */
export class %%name%% extends Controller implements ResourceController {
  index() {
    return [];
  }

  create() {
    return 'create';
  }

  store() {
    return 'store';
  }

  show(id: string) {
    return { id };
  }

  edit(id: string) {
    return `edit ${id}`;
  }

  update(id: string) {
    return `update ${id}`;
  }

  destroy(id: string) {
    return `destroy ${id}`;
  }
}
