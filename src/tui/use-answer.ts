/**
 * Data fetched on demand from a provider (blame, twins, callers, a file's text), remembered per key
 * for the session so moving back and forth never asks twice.
 */
import { useEffect, useRef, useState } from 'react';

export type Answer<T> =
  { status: 'loading' } | { status: 'ready'; value: T } | { status: 'error'; message: string };

/** Answers by key, shared by the panes of one screen. */
export type AnswerCache = Map<string, Answer<unknown>>;

/**
 * The answer for `key`, loading it with `load` the first time. A null key loads nothing (and
 * answers null): the pane has nothing to ask for.
 */
export function useAnswer<T>(
  cache: AnswerCache,
  key: string | null,
  load: () => Promise<T>,
): Answer<T> | null {
  const [, setVersion] = useState(0);
  const mounted = useRef(true);
  useEffect(
    () => () => {
      mounted.current = false;
    },
    [],
  );
  useEffect(() => {
    if (key === null || cache.has(key)) return;
    cache.set(key, { status: 'loading' });
    load()
      .then(
        (value) => cache.set(key, { status: 'ready', value }),
        (error: unknown) =>
          cache.set(key, {
            status: 'error',
            message: error instanceof Error ? error.message : String(error),
          }),
      )
      // Whichever key the pane shows by now, a render picks its answer from the cache.
      .finally(() => mounted.current && setVersion((v) => v + 1));
    // `load` is a fresh closure each render; the key says what it loads.
  }, [cache, key]);
  if (key === null) return null;
  return (cache.get(key) as Answer<T> | undefined) ?? { status: 'loading' };
}

/** The same cache outside rendering (a key press that needs data): the answer, loaded once. */
export async function fetchAnswer<T>(
  cache: AnswerCache,
  key: string,
  load: () => Promise<T>,
): Promise<T> {
  const cached = cache.get(key) as Answer<T> | undefined;
  if (cached?.status === 'ready') return cached.value;
  try {
    const value = await load();
    cache.set(key, { status: 'ready', value });
    return value;
  } catch (error) {
    cache.set(key, {
      status: 'error',
      message: error instanceof Error ? error.message : String(error),
    });
    throw error;
  }
}
