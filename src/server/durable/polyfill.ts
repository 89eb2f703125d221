// The Restate SDK calls Promise.withResolvers, which Node 20 lacks (it arrived in Node 22).
// Imported first by the worker entry; without it every invocation fails.
type Resolvers<T> = {
  promise: Promise<T>;
  resolve: (value: T | PromiseLike<T>) => void;
  reject: (reason?: unknown) => void;
};

const promiseConstructor = Promise as PromiseConstructor & {
  withResolvers?: <T>() => Resolvers<T>;
};

if (typeof promiseConstructor.withResolvers !== "function") {
  promiseConstructor.withResolvers = function withResolvers<T>(): Resolvers<T> {
    let resolve!: Resolvers<T>["resolve"];
    let reject!: Resolvers<T>["reject"];
    const promise = new Promise<T>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    return { promise, resolve, reject };
  };
}

export {};
