#!/usr/bin/env node
// An oracle-free check of one-program tracing: a binary can only call into packages it imports,
// transitively. This script reads the Go files of a tree itself (not the index): it maps
// directories to import paths (go.mod modules, staging, vendor), applies the build context the
// index assumes (linux/amd64, gc, cgo, no extra tags), reads each package's imports, and computes
// the import closure of a main package. A tree before go.mod (GOPATH era, v1.14) takes its import
// path from Godeps/Godeps.json (or `--import-path`); staging/src/<path> is <path> in every era. Given `trace -o json` outputs, it counts the functions
// whose package lies outside that closure.
//
//   node bench/import-closure.mjs --repo <tree> --main cmd/kube-scheduler [--trace t.json ...] [--import-path k8s.io/kubernetes]
//   node bench/import-closure.mjs --repo <tree> --main cmd/kube-scheduler --list   (the closure)
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    repo: { type: 'string' },
    main: { type: 'string', multiple: true },
    trace: { type: 'string', multiple: true },
    list: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    'import-path': { type: 'string' },
  },
});
if (!values.repo || !values.main?.length) {
  console.error(
    'usage: import-closure.mjs --repo <tree> --main <dir> [--main <dir>] [--trace t.json ...] [--list] [--json]',
  );
  process.exit(2);
}
const root = path.resolve(values.repo);

const files = execFileSync('git', ['ls-files', '-z', '--', '*.go'], {
  cwd: root,
  maxBuffer: 1 << 30,
})
  .toString()
  .split('\0')
  .filter((f) => f && !f.endsWith('_test.go') && !/(^|\/)testdata\//.test(f));

// Modules: every go.mod in the tree (staging modules have their own); vendor/<p> is <p>.
const modules = execFileSync('git', ['ls-files', '-z', '--', 'go.mod', '*/go.mod'], { cwd: root })
  .toString()
  .split('\0')
  .filter(Boolean)
  .flatMap((f) => {
    if (f.startsWith('vendor/') || f.includes('/vendor/')) return [];
    const m = /^\s*module\s+"?([^\s"]+)/m.exec(readFileSync(path.join(root, f), 'utf8'));
    const dir = path.posix.dirname(f);
    return m ? [{ dir: dir === '.' ? '' : dir, path: m[1] }] : [];
  })
  .sort((a, b) => b.dir.length - a.dir.length);
// GOPATH era: the root's import path, where no go.mod at the root gives it.
if (!modules.some((m) => m.dir === '')) {
  let rootPath = values['import-path'];
  try {
    rootPath ??= JSON.parse(
      readFileSync(path.join(root, 'Godeps', 'Godeps.json'), 'utf8'),
    ).ImportPath;
  } catch {
    // No Godeps.json either: only vendor/ and staging/ are named.
  }
  if (rootPath) modules.push({ dir: '', path: rootPath });
}

function importPathOf(dir) {
  // staging/src is a GOPATH root of its own (its modules' go.mod files say the same).
  if (dir.startsWith('staging/src/')) return dir.slice('staging/src/'.length);
  const v = dir.startsWith('vendor/') ? 0 : dir.lastIndexOf('/vendor/') + 1;
  if (dir.startsWith('vendor/') || v > 0) return dir.slice(v + 'vendor/'.length);
  for (const m of modules) {
    if (m.dir === '' || dir === m.dir || dir.startsWith(`${m.dir}/`)) {
      const rest = m.dir === '' ? dir : dir.slice(m.dir.length + 1);
      return rest ? `${m.path}/${rest}` : m.path;
    }
  }
  return null;
}

const OS = new Set(
  'aix android darwin dragonfly freebsd hurd illumos ios js linux nacl netbsd openbsd plan9 solaris wasip1 windows zos'.split(
    ' ',
  ),
);
const ARCH = new Set(
  '386 amd64 amd64p32 arm armbe arm64 arm64be loong64 mips mipsle mips64 mips64le mips64p32 mips64p32le ppc ppc64 ppc64le riscv riscv64 s390 s390x sparc sparc64 wasm'.split(
    ' ',
  ),
);
const TRUE_TAGS = new Set(['linux', 'amd64', 'unix', 'gc', 'cgo']);

function fileNameOk(file) {
  const parts = path.posix.basename(file, '.go').split('_');
  const last = parts[parts.length - 1];
  const prev = parts[parts.length - 2];
  if (parts.length > 1 && ARCH.has(last)) {
    if (last !== 'amd64') return false;
    if (parts.length > 2 && OS.has(prev) && prev !== 'linux') return false;
  } else if (parts.length > 1 && OS.has(last) && last !== 'linux') return false;
  return true;
}

function evalExpr(expr) {
  const tokens = expr.match(/!|&&|\|\||\(|\)|[\w.\-/]+/g) ?? [];
  let i = 0;
  const tag = (t) => TRUE_TAGS.has(t) || /^go1\.\d+$/.test(t);
  const or = () => {
    let v = and();
    while (tokens[i] === '||') {
      i++;
      v = and() || v;
    }
    return v;
  };
  const and = () => {
    let v = not();
    while (tokens[i] === '&&') {
      i++;
      v = not() && v;
    }
    return v;
  };
  const not = () => {
    if (tokens[i] === '!') {
      i++;
      return !not();
    }
    if (tokens[i] === '(') {
      i++;
      const v = or();
      i++;
      return v;
    }
    return tag(tokens[i++] ?? '');
  };
  return or();
}

/** The build constraint of the header (before `package`): `//go:build`, else `// +build` lines. */
function constraintOk(text) {
  const header = text.slice(0, text.search(/^package\s/m));
  const goBuild = /^\/\/go:build\s+(.+)$/m.exec(header);
  if (goBuild) return evalExpr(goBuild[1]);
  for (const m of header.matchAll(/^\/\/\s*\+build\s+(.+)$/gm)) {
    // Space-separated options are ORed, comma-separated terms ANDed; lines are ANDed.
    const ok = m[1]
      .trim()
      .split(/\s+/)
      .some((opt) =>
        opt.split(',').every((t) => (t.startsWith('!') ? !evalExpr(t.slice(1)) : evalExpr(t))),
      );
    if (!ok) return false;
  }
  return true;
}

function importsOf(text) {
  const out = [];
  const body = text.replace(/\/\*[\s\S]*?\*\//g, '');
  for (const block of body.matchAll(/^import\s*\(([\s\S]*?)^\)/gm))
    for (const m of block[1].matchAll(/"([^"]+)"/g)) out.push(m[1]);
  for (const m of body.matchAll(/^import\s+(?:[\w.]+\s+)?"([^"]+)"/gm)) out.push(m[1]);
  return out;
}

const packages = new Map(); // import path -> Set of imports
for (const file of files) {
  if (!fileNameOk(file)) continue;
  let text;
  try {
    text = readFileSync(path.join(root, file), 'utf8');
  } catch {
    continue;
  }
  if (!constraintOk(text)) continue;
  if (/^package\s+\w+_test\b/m.test(text)) continue;
  const dir = path.posix.dirname(file);
  const ip = importPathOf(dir === '.' ? '' : dir);
  if (!ip) continue;
  let set = packages.get(ip);
  if (!set) packages.set(ip, (set = new Set()));
  for (const imp of importsOf(text)) set.add(imp);
}

const closure = new Set();
for (const main of values.main) {
  // `.` (or `./`) is the repository's root package (kube-state-metrics' main.go).
  const start = importPathOf(path.posix.normalize(main).replace(/^\.$/, '').replace(/\/$/, ''));
  if (!packages.has(start)) {
    console.error(`no Go package at ${main} (import path ${start})`);
    process.exit(2);
  }
  const stack = [start];
  while (stack.length) {
    const p = stack.pop();
    if (closure.has(p)) continue;
    closure.add(p);
    for (const imp of packages.get(p) ?? []) if (!closure.has(imp)) stack.push(imp);
  }
}

if (values.list) {
  for (const p of [...closure].sort()) console.log(p);
  process.exit(0);
}

const inTree = [...closure].filter((p) => packages.has(p)).length;
const report = { mains: values.main, closure: closure.size, closureInTree: inTree, traces: [] };
for (const file of values.trace ?? []) {
  const trace = JSON.parse(readFileSync(file, 'utf8'));
  const outside = trace.nodes.filter(
    (n) => n.package && packages.has(n.package) && !closure.has(n.package),
  );
  const byPackage = new Map();
  for (const n of outside) byPackage.set(n.package, (byPackage.get(n.package) ?? 0) + 1);
  report.traces.push({
    file,
    functions: trace.nodes.length,
    outside: outside.length,
    top: [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, 10),
  });
}
if (values.json) console.log(JSON.stringify(report, null, 2));
else {
  console.log(
    `closure of ${values.main.join(' + ')}: ${closure.size} packages (${inTree} in the tree)`,
  );
  for (const t of report.traces) {
    console.log(
      `${t.file}: ${t.functions} functions, ${t.outside} outside the closure${t.top.length ? ` (top: ${t.top.map(([p, n]) => `${p} ${n}`).join(', ')})` : ''}`,
    );
  }
}
