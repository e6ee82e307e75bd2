declare module '@medley/router' {
  export default class Router {
    register(path: string): object;
    find(url: string): unknown;
  }
}
