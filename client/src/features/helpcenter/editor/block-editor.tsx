import { useEffect, useRef } from 'react';
import { useLingui } from '@lingui/react/macro';
import EditorJS, { type OutputData } from '@editorjs/editorjs/dist/editorjs.mjs';
import Header from '@editorjs/header';
import InlineCode from '@editorjs/inline-code';
import List from '@editorjs/list';
import Marker from '@editorjs/marker';
import { forEditor } from './publish';
import classes from './block-editor.module.css';

/**
 * Editor.js 2.27.0 (the spec's editor) with paragraph, header, list, marker and inline code; its
 * own chunk, loaded on the editor route only. It is made once per `docKey` (an article's language)
 * from `initial`, and tells every change through `onChange` with the editor's saved document;
 * later changes of `initial` (its own saves coming back from the store) do not reset it.
 */
export function BlockEditor(props: {
  readonly docKey: string;
  readonly initial: unknown;
  readonly label: string;
  readonly onChange: (doc: OutputData) => void;
  /** At once on every keystroke (Editor.js tells `onChange` a moment later). */
  readonly onInput: () => void;
}) {
  const { t } = useLingui();
  const holder = useRef<HTMLDivElement>(null);
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;
  const initial = useRef(props.initial);
  initial.current = props.initial;
  const placeholder = t`Write here: press Tab for headings and lists`;
  useEffect(() => {
    const element = holder.current;
    if (element === null) return;
    let editor: EditorJS | undefined;
    let closed = false;
    editor = new EditorJS({
      holder: element,
      data: forEditor(initial.current) as OutputData,
      placeholder,
      minHeight: 160,
      tools: {
        header: { class: Header, config: { levels: [2, 3, 4], defaultLevel: 2 } },
        list: { class: List, inlineToolbar: true },
        marker: { class: Marker },
        inlineCode: { class: InlineCode },
      },
      onChange: (api) => {
        void api.saver.save().then((doc) => {
          if (!closed) onChange.current(doc);
        });
      },
    });
    return () => {
      closed = true;
      void editor?.isReady.then(() => editor?.destroy()).catch(() => undefined);
      editor = undefined;
    };
  }, [props.docKey, placeholder]);
  return (
    <div
      ref={holder}
      className={classes.editor}
      role="group"
      aria-label={props.label}
      onInput={props.onInput}
      data-testid="block-editor"
    />
  );
}
