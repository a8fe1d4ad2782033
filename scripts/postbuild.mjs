// After tsc: copy the SQL files next to the compiled store code (tsc copies only TypeScript), and
// make the entry executable so `npx k8s-read` and `./dist/cli.js` both work.
import { chmodSync, copyFileSync, existsSync, readdirSync } from 'node:fs';

for (const file of readdirSync('src/store')) {
  if (file.endsWith('.sql')) copyFileSync(`src/store/${file}`, `dist/store/${file}`);
}
if (existsSync('dist/cli.js')) chmodSync('dist/cli.js', 0o755);
