// After tsc: copy the SQL files next to the compiled store code (tsc copies only TypeScript), make
// the entry executable so `npx k8s-read` and `./dist/cli.js` both work, and write dist/build-id,
// the digest of everything built: what a stored trace answer was computed by (src/cli/trace-cache.ts).
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  existsSync,
  readdirSync,
  readFileSync,
  writeFileSync,
} from 'node:fs';

for (const file of readdirSync('src/store')) {
  if (file.endsWith('.sql')) copyFileSync(`src/store/${file}`, `dist/store/${file}`);
}
if (existsSync('dist/cli.js')) chmodSync('dist/cli.js', 0o755);

const files = readdirSync('dist', { recursive: true, withFileTypes: true })
  .filter((f) => f.isFile())
  .map((f) => `${f.parentPath ?? f.path}/${f.name}`.slice('dist/'.length))
  .filter((f) => f !== 'build-id')
  .sort();
const hash = createHash('sha256');
for (const file of files)
  hash
    .update(file)
    .update('\0')
    .update(readFileSync(`dist/${file}`))
    .update('\0');
writeFileSync('dist/build-id', `${hash.digest('hex')}\n`);
