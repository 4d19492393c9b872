import { defineConfig } from 'vite';

/**
 * The web client's build (client/). The React application arrives with issue 5; until then the
 * server answers / itself and nothing here is built by `npm start`.
 */
export default defineConfig({
  root: 'client',
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: { proxy: { '/api': 'http://127.0.0.1:3000', '/staticconf': 'http://127.0.0.1:3000' } },
});
