import { url } from '../../../generated/routes.gen.%%ext%%';

export class HomeController {
  index() {
    return `<a href="${url('hello', { name: 'world' })}">Say hello</a>`;
  }

  hello(name: string) {
    // Objects become JSON; `url()` is checked by tsc against the routes.
    return { greeting: `Hello, ${name}!`, self: url('hello', { name }) };
  }
}
