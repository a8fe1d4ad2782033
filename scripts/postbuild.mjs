// Makes the built entry executable, so `npx k8s-read` and `./dist/cli.js` both work.
import { chmodSync, existsSync } from 'node:fs';

if (existsSync('dist/cli.js')) chmodSync('dist/cli.js', 0o755);
