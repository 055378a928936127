// Where the build puts what is not a route's file: the function bundles a host runs.

export const FUNCTION_PATHS = {
  /** Where esbuild writes the platform-neutral handler module and the adapters. */
  core: '_functions/api.mjs',
  cloudflareWorker: '_worker.js',
  netlify: '_netlify/functions/api.mjs',
} as const;
