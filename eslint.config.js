// Layering from DESIGN.md, enforced per folder (as Gemini CLI does): each message says where the
// code belongs instead of only saying no.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const uiPackages = (where) => [
  { name: 'ink', message: `${where} never renders; UI code belongs in src/tui.` },
  { name: 'react', message: `${where} never renders; UI code belongs in src/tui.` },
];
const upper = (where, folders) =>
  folders.map((folder) => ({
    group: [`../${folder}/*`, `../../${folder}/*`],
    message: `${where} sits below ${folder}; move the shared piece down or inject it from src/cli.`,
  }));

const restrict = (files, paths, patterns) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { paths, patterns }] },
});

export default tseslint.config(
  { ignores: ['dist/**', 'dist-check/**', 'node_modules/**', 'fixtures/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: { process: 'readonly', console: 'readonly', URL: 'readonly', Buffer: 'readonly' },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  // The bottom layer: every folder may import it; it imports nothing of k8s-read but errors.ts.
  restrict(['src/shared/**'], uiPackages('src/shared'), [
    {
      group: ['../*', '!../errors.js', '../../*'],
      message:
        'src/shared is the bottom layer: it imports nothing of k8s-read but src/errors.ts; inject what it needs.',
    },
  ]),
  restrict(
    ['src/store/**'],
    uiPackages('src/store'),
    upper('src/store', [
      'index',
      'resolve',
      'trace',
      'git',
      'tour',
      'export',
      'tui',
      'cli',
      'twins',
    ]),
  ),
  restrict(
    ['src/index/**'],
    uiPackages('src/index'),
    upper('src/index', ['resolve', 'trace', 'git', 'tour', 'export', 'tui', 'cli', 'twins']),
  ),
  restrict(
    ['src/resolve/**'],
    uiPackages('src/resolve'),
    upper('src/resolve', ['trace', 'git', 'tour', 'export', 'tui', 'cli', 'twins']),
  ),
  restrict(
    ['src/trace/**'],
    uiPackages('src/trace'),
    upper('src/trace', ['git', 'tour', 'export', 'tui', 'cli', 'twins']),
  ),
  restrict(
    ['src/git/**'],
    uiPackages('src/git'),
    upper('src/git', ['index', 'resolve', 'trace', 'tour', 'export', 'tui', 'cli', 'twins']),
  ),
  restrict(
    ['src/twins/**'],
    uiPackages('src/twins'),
    upper('src/twins', [
      'index',
      'store',
      'resolve',
      'trace',
      'git',
      'tour',
      'export',
      'tui',
      'cli',
    ]),
  ),
  restrict(
    ['src/export/**'],
    uiPackages('src/export'),
    upper('src/export', ['tui', 'cli', 'tour']),
  ),
  restrict(['src/tour/**'], uiPackages('src/tour'), upper('src/tour', ['tui', 'cli', 'export'])),
  restrict(
    ['src/tui/**'],
    [
      {
        name: 'sqlite3',
        message: 'The TUI is handed data through props; queries belong in src/store.',
      },
      {
        name: 'tree-sitter',
        message: 'The TUI is handed data through props; parsing belongs in src/index.',
      },
      {
        name: 'simple-git',
        message: 'The TUI is handed data through props; git belongs in src/git.',
      },
    ],
    upper('src/tui', ['cli', 'store', 'index']),
  ),
  {
    files: ['src/**'],
    ignores: ['src/cli/**', 'src/cli.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'argv',
          message: 'Only src/cli reads process.argv; pass options in.',
        },
        {
          object: 'process',
          property: 'env',
          message: 'Only src/cli reads process.env; pass options in.',
        },
        {
          object: 'process',
          property: 'stdout',
          message: 'Only src/cli writes process.stdout; take a Writable.',
        },
      ],
    },
  },
);
