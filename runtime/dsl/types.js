/**
 * What the route-file DSL records: plain data, with the source location of every call.
 * The compiler turns these definitions into `RouteRecord`s.
 */
export {};
