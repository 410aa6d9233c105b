// ESLint for the whole tree, with type information (typescript-eslint's project service: each file is linted with
// the tsconfig.json of its package). The rules are few and chosen: the ones that catch what the type checker lets
// through in code that moves money, mostly promises that nobody awaits or that land where a callback's result is
// ignored. Formatting is Prettier's job (.prettierrc.json), not ESLint's.
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      '**/generated/**',
      '**/*.gen.ts',
      '**/.vitest-*',
      'packages/*/api/**',
      'spec/**',
      '**/coverage/**',
      '**/*.js',
      '**/*.mjs',
      '**/*.cjs',
    ],
  },
  {
    files: ['**/*.ts'],
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    plugins: { '@typescript-eslint': tseslint.plugin },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      // A promise nobody awaits loses its failure: a payment whose error is never seen. Where one is meant to run on
      // its own, `void` marks it, with the reason beside it.
      '@typescript-eslint/no-floating-promises': ['error', { ignoreVoid: true }],
      // A promise where a callback's result is ignored (an event listener, forEach, a condition) runs unawaited.
      '@typescript-eslint/no-misused-promises': 'error',
      // Awaiting what is not a promise is a sign the code is not what its author thought.
      '@typescript-eslint/await-thenable': 'error',
      // Every member of a union of kinds handled (an outcome, an operation, a drift kind): a new one cannot slip past.
      '@typescript-eslint/switch-exhaustiveness-check': ['error', { considerDefaultExhaustiveForUnions: true }],
      // Rejections with something other than an Error lose their stack and their `code`.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingUnknown: true }],
      '@typescript-eslint/only-throw-error': 'error',
      // A `return await` inside try keeps the failure inside the try; outside it, it only adds a tick.
      '@typescript-eslint/return-await': ['error', 'in-try-catch'],
    },
  },
);
