import { Controller, type ResourceController } from 'course-router';

/** Route it with `Course.resource('%%path%%', '%%name%%')`. */
export class %%name%% extends Controller implements ResourceController {
  index(): unknown {
    return [];
  }

  create(): unknown {
    return 'create';
  }

  store(): unknown {
    return 'store';
  }

  show(id: string): unknown {
    return { id };
  }

  edit(id: string): unknown {
    return `edit ${id}`;
  }

  update(id: string): unknown {
    return `update ${id}`;
  }

  destroy(id: string): unknown {
    return `destroy ${id}`;
  }
}
