/**
 * Go types as text becomes them: instantiations keep their type arguments, which substitution binds
 * to the declared type parameters, and inference reads off the types of arguments.
 */
import { describe, expect, it } from 'vitest';
import { factsOfSource } from '../../src/index/parse-file.js';
import {
  bindTypeArgs,
  instanceKey,
  isOpen,
  parseType,
  substitute,
  typeKey,
  unify,
  type GoType,
} from '../../src/resolve/types.js';

const scope = {
  pkg: 'k8s.io/client-go/util/workqueue',
  imports: new Map([['cache', 'k8s.io/client-go/tools/cache']]),
  typeParams: new Set(['T']),
};

describe('Go types', () => {
  it("keeps a channel's direction in its key, and reads `chan T` as a channel of T", () => {
    expect(
      ['<-chan cache.ObjectName', 'chan<- T', 'chan struct{}', 'chan T'].map((t) =>
        typeKey(parseType(t, scope)),
      ),
    ).toEqual([
      '<-chan k8s.io/client-go/tools/cache.ObjectName',
      'chan<- T',
      'chan struct{...}',
      'chan T',
    ]);
    // Substituted, the direction stays.
    const recv = parseType('<-chan T', scope);
    const bound = new Map([['T', parseType('cache.ObjectName', scope)]]);
    expect(typeKey(substitute(recv, bound))).toBe('<-chan k8s.io/client-go/tools/cache.ObjectName');
  });

  it('reads a struct written out as stored: fields apart, `name*T` and `xs[]T` as fields', () => {
    const t = parseType(
      'struct{sync.Mutex;src*cache.Store;names[]string;Base[T];limits struct{lo int;hi int};a,b int}',
      { ...scope, imports: new Map([...scope.imports, ['sync', 'sync']]) },
    );
    expect(t.k === 'struct' && t.fields.map((f) => [f.name, typeKey(f.type)])).toEqual([
      [null, 'sync.Mutex'],
      ['src', '*k8s.io/client-go/tools/cache.Store'],
      ['names', '[]string'],
      [null, 'k8s.io/client-go/util/workqueue.Base'],
      ['limits', 'struct{...}'],
      ['a', 'int'],
      ['b', 'int'],
    ]);
  });

  it('reads every method of an interface written out over several lines', () => {
    const t = parseType('interface{Close() error;Name() string}', scope);
    expect(t).toEqual({ k: 'iface', methods: ['Close', 'Name'] });
  });

  it('parses an instantiation with its type arguments, a type parameter as one', () => {
    expect(parseType('*Typed[cache.ObjectName]', scope)).toEqual({
      k: 'ptr',
      elem: {
        k: 'named',
        pkg: 'k8s.io/client-go/util/workqueue',
        name: 'Typed',
        args: [{ k: 'named', pkg: 'k8s.io/client-go/tools/cache', name: 'ObjectName' }],
      },
    });
    expect(parseType('map[T][]T', scope)).toEqual({
      k: 'map',
      key: { k: 'typeparam', name: 'T' },
      elem: { k: 'slice', elem: { k: 'typeparam', name: 'T' } },
    });
  });

  it('binds type parameters in every position they can take', () => {
    const t = parseType('func(item T, rest ...T) (map[string]*Typed[T], error)', scope);
    const args = bindTypeArgs(['T'], [parseType('cache.ObjectName', scope)]);
    expect(isOpen(t)).toBe(true);
    const bound = substitute(t, args);
    expect(isOpen(bound)).toBe(false);
    expect(instanceKey(bound)).toBe(
      'func(k8s.io/client-go/tools/cache.ObjectName, []k8s.io/client-go/tools/cache.ObjectName)' +
        ' (map[string]*k8s.io/client-go/util/workqueue.Typed[k8s.io/client-go/tools/cache.ObjectName], error)',
    );
  });

  it('names an instantiation by its origin in typeKey and by its arguments in instanceKey', () => {
    const t = parseType('Typed[cache.ObjectName]', scope);
    expect(typeKey(t)).toBe('k8s.io/client-go/util/workqueue.Typed');
    expect(instanceKey(t)).toBe(
      'k8s.io/client-go/util/workqueue.Typed[k8s.io/client-go/tools/cache.ObjectName]',
    );
  });

  it('infers type arguments from the types of the arguments passed', () => {
    const param = parseType('TypedRateLimiter[T]', scope);
    const arg = parseType('TypedRateLimiter[cache.ObjectName]', scope);
    const into = new Map<string, GoType>();
    unify(param, arg, into);
    expect(into.get('T')).toEqual(parseType('cache.ObjectName', scope));
    // A different origin binds nothing.
    const other = new Map<string, GoType>();
    unify(param, parseType('Typed[cache.ObjectName]', scope), other);
    expect(other.size).toBe(0);
    // Through pointers, slices and function types.
    const fn = new Map<string, GoType>();
    unify(
      parseType('func([]*T) error', scope),
      parseType('func([]*cache.ObjectName) error', scope),
      fn,
    );
    expect(fn.get('T')).toEqual(parseType('cache.ObjectName', scope));
  });

  it('reads named parameters and results from the type text the index stores', () => {
    // The stored text drops the space before `*`, `[` and `...`: `req*http.Request` is a name
    // and a type. Read as a type, a timeout hook's `(req *http.Request, longRunning bool)`
    // became `(bool, bool)`, and the request it returned a bool.
    const facts = factsOfSource(
      'package p\nimport "net/http"\n' +
        'type hook = func(r *http.Request, xs []int, args ...string) (req *http.Request, ok bool)\n' +
        'type one func(List[int]) (s *http.Server)\n',
    );
    const [hook, one] = facts.types.map((t) => t.underlying!);
    expect(hook).toBe('func(r*http.Request,xs[]int,args...string)(req*http.Request,ok bool)');
    const http = { pkg: 'p', imports: new Map([['http', 'net/http']]) };
    const request: GoType = { k: 'ptr', elem: { k: 'named', pkg: 'net/http', name: 'Request' } };
    const str: GoType = { k: 'named', pkg: '', name: 'string' };
    const int: GoType = { k: 'named', pkg: '', name: 'int' };
    expect(parseType(hook!, http)).toEqual({
      k: 'func',
      params: [request, { k: 'slice', elem: int }, { k: 'slice', elem: str }],
      results: [request, { k: 'named', pkg: '', name: 'bool' }],
      variadic: true,
    });
    // A generic type's instantiation alone is a type, not a name.
    expect(parseType(one!, http)).toEqual({
      k: 'func',
      params: [{ k: 'named', pkg: 'p', name: 'List', args: [int] }],
      results: [{ k: 'ptr', elem: { k: 'named', pkg: 'net/http', name: 'Server' } }],
    });
  });
});
