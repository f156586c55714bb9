// The object store, timed and counted per operation (gameplatform_object_store_*): a wrapper with the same interface.
import type { ObjectStore } from '../storage/store.js';
import type { InfrastructureMetrics, OperationSeries } from './infrastructure.js';

/** Times `call` into `series`, counting a rejection as an error. */
async function timed<T>(series: OperationSeries, call: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    return await call();
  } catch (error) {
    series.error();
    throw error;
  } finally {
    series.observe((performance.now() - started) / 1000);
  }
}

/** A listing is timed from its first page to its last (or its failure). */
async function* timedList<T>(series: OperationSeries, list: AsyncIterable<T>): AsyncIterable<T> {
  const started = performance.now();
  try {
    yield* list;
  } catch (error) {
    series.error();
    throw error;
  } finally {
    series.observe((performance.now() - started) / 1000);
  }
}

/**
 * The store with each call timed. A plain object of functions (no private state), so a test may copy it and replace
 * one method.
 */
export function instrumentStore(store: ObjectStore, metrics: InfrastructureMetrics): ObjectStore {
  const op = (name: string) => metrics.storeOperation(name);
  const [check, put, get, head, remove, removePrefix, list, folders] = [
    'check',
    'put',
    'get',
    'head',
    'delete',
    'delete_prefix',
    'list',
    'folders',
  ].map(op) as [
    OperationSeries,
    OperationSeries,
    OperationSeries,
    OperationSeries,
    OperationSeries,
    OperationSeries,
    OperationSeries,
    OperationSeries,
  ];
  return {
    kind: store.kind,
    location: store.location,
    check: () => timed(check, () => store.check()),
    put: (key, body, options) => timed(put, () => store.put(key, body, options)),
    get: (key, range) => timed(get, () => store.get(key, range)),
    head: (key) => timed(head, () => store.head(key)),
    delete: (key) => timed(remove, () => store.delete(key)),
    deletePrefix: (prefix) => timed(removePrefix, () => store.deletePrefix(prefix)),
    list: (prefix) => timedList(list, store.list(prefix)),
    folders: (prefix) => timed(folders, () => store.folders(prefix)),
    close: () => store.close(),
  };
}
