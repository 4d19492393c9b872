// @ts-check
import js from '@eslint/js';
import globals from 'globals';
import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

/** Workspaces a package may not import, by DESIGN.md §3's dependency order. */
const forbidden = {
  'shared-schema': ['server', 'migrations', 'sync-worker', 'client'],
  migrations: ['server', 'sync-worker', 'client'],
  server: ['sync-worker', 'client'],
  'sync-worker': ['server', 'migrations', 'client'],
  client: ['server', 'migrations'],
  'gateway-agent': ['server', 'migrations', 'sync-worker', 'client'],
};

/**
 * Tests of the worker and of the gateway agent run them against the real server (DESIGN.md §3:
 * nothing imports server/ except server/ and tests): they may import the server's test harness
 * (and the agent's tests the worker's TCP fault proxy). Listed: what their tests still may not.
 */
const testsMayImport = {
  'sync-worker': ['migrations', 'client'],
  'gateway-agent': ['migrations', 'client'],
};

const restrict = (from, targets, files) => ({
  files,
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        // Mantine's password field names its show button in English: the client's own says it
        // in the user's language.
        ...(from === 'client'
          ? {
              paths: [
                {
                  name: '@mantine/core',
                  importNames: ['PasswordInput'],
                  message: 'Use PasswordInput from client/src/components/password-input.',
                },
              ],
            }
          : {}),
        patterns: [
          ...targets.map((t) => ({
            group: [`@plant/${t}`, `@plant/${t}/*`, `**/${t}/src/**`],
            message: `${from} may not import ${t} (DESIGN.md §3, dependency order).`,
          })),
          // The client reaches the worker only through Comlink: its types, never its code.
          ...(from === 'client'
            ? [
                {
                  group: ['@plant/sync-worker', '@plant/sync-worker/*'],
                  allowTypeImports: true,
                  message: 'client may import sync-worker types only.',
                },
              ]
            : []),
        ],
      },
    ],
  },
});

const layerRules = [
  ...Object.entries(forbidden).map(([from, targets]) =>
    restrict(from, targets, [`${from}/**/*.ts`, `${from}/**/*.tsx`]),
  ),
  ...Object.entries(testsMayImport).map(([from, targets]) =>
    restrict(from, targets, [`${from}/**/*.test.ts`, `${from}/src/testing/**/*.ts`]),
  ),
];

export default tseslint.config(
  { ignores: ['**/node_modules/**', '**/dist/**', 'data/**', '.tmp/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
      globals: { ...globals.node },
    },
    rules: {
      eqeqeq: ['error', 'always'],
      'no-console': 'error',
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/switch-exhaustiveness-check': 'error',
      '@typescript-eslint/consistent-type-imports': 'error',
      '@typescript-eslint/ban-ts-comment': ['error', { 'ts-ignore': 'allow-with-description' }],
      'no-restricted-properties': [
        'error',
        {
          object: 'z',
          property: 'toJSONSchema',
          message:
            'Use toJsonSchema from @plant/shared-schema: the shared schemas are deferred (shared-schema/src/deferred.ts).',
        },
      ],
      'no-restricted-syntax': [
        'error',
        {
          selector: 'TSEnumDeclaration',
          message: 'Use an `as const` object instead of an enum.',
        },
        {
          selector:
            "CallExpression[callee.type='MemberExpression'][callee.object.name=/^(it|test|describe)$/][callee.property.name=/^(only|skip)$/]",
          message: 'No focused or skipped tests.',
        },
      ],
    },
  },
  ...layerRules,
  {
    // The client's React code: hooks called by the rules, effects with their real dependencies.
    files: ['client/**/*.tsx', 'client/**/*.ts'],
    plugins: { 'react-hooks': reactHooks },
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
      // TanStack Router's guards throw its redirects (they are not errors, by design).
      '@typescript-eslint/only-throw-error': [
        'error',
        { allow: [{ from: 'package', package: '@tanstack/router-core', name: 'Redirect' }] },
      ],
    },
    languageOptions: { globals: { ...globals.browser } },
  },
  {
    files: ['**/*.js', '**/*.mjs'],
    extends: [tseslint.configs.disableTypeChecked],
  },
);
