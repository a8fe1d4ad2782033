/** Lists kept under keys of a Map, as the resolver, the tracer and the renderers group things. */

/** Appends to the list under `key`, creating it. */
export function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
