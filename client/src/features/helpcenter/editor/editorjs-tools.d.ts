/*
 * Editor.js 2.27.0 and the tools of its era. Its own types are .ts sources that do not compile
 * under this project's settings (verbatimModuleSyntax), and the tools ship none: the editor is
 * imported from its ES build with the little of its API used here.
 */
declare module '@editorjs/editorjs/dist/editorjs.mjs' {
  export interface OutputData {
    readonly time?: number;
    readonly version?: string;
    readonly blocks: readonly { id?: string; type: string; data: Record<string, unknown> }[];
  }
  export interface EditorApi {
    readonly saver: { save(): Promise<OutputData> };
  }
  export interface EditorConfig {
    holder: HTMLElement;
    data?: OutputData;
    placeholder?: string;
    minHeight?: number;
    tools?: Record<string, { class: unknown; inlineToolbar?: boolean; config?: object }>;
    onChange?: (api: EditorApi) => void;
    i18n?: { messages: object };
  }
  export default class EditorJS {
    constructor(config: EditorConfig);
    readonly isReady: Promise<void>;
    save(): Promise<OutputData>;
    destroy(): void;
  }
}
declare module '@editorjs/header' {
  const Header: unknown;
  export default Header;
}
declare module '@editorjs/list' {
  const List: unknown;
  export default List;
}
declare module '@editorjs/marker' {
  const Marker: unknown;
  export default Marker;
}
declare module '@editorjs/inline-code' {
  const InlineCode: unknown;
  export default InlineCode;
}
