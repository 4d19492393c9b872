import type { Plugin } from 'vite';

/**
 * @editorjs/image 2.9.3 bundles an XHR helper whose webpack runtime finds the global object by
 * `new Function("return this")()` when the module loads (strict code: `this` is undefined): the
 * app's CSP has no 'unsafe-eval', the browser refuses and reports it on every editor load. Its
 * setImmediate shim would also compile a string given instead of a function. Both become code
 * without eval here; the version is pinned (client/package.json), and a build of another one
 * whose text differs stops here rather than shipping the eval again.
 */
const GLOBAL = 'new Function("return this")()';
const SHIM = 'new Function("" + h)';

export function editorjsImageNoEval(): Plugin {
  return {
    name: 'plant:editorjs-image-no-eval',
    transform(code, id) {
      if (!id.replace(/\\/g, '/').includes('/@editorjs/image/dist/image.mjs')) return null;
      if (!code.includes(GLOBAL) || !code.includes(SHIM))
        throw new Error('@editorjs/image changed: check its eval before building with it');
      return {
        code: code
          .replace(GLOBAL, 'globalThis')
          .replace(SHIM, '(() => { throw new TypeError("setImmediate needs a function"); })'),
        map: null,
      };
    },
  };
}
