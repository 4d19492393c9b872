/*
 * @editorjs/image 2.9.3 ships types that import Editor.js's .ts sources, which do not compile
 * under this project's settings (editorjs-tools.d.ts): tsconfig's `paths` points the package's
 * types here instead; the bundler still loads the package itself.
 */
declare const ImageTool: unknown;
export default ImageTool;
