import { useEffect, useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Text } from '@mantine/core';
import type EditorJS from '@editorjs/editorjs/dist/editorjs.mjs';
import type { OutputData } from '@editorjs/editorjs/dist/editorjs.mjs';
import { forEditor } from './publish';
import classes from './block-editor.module.css';

/** Editor.js and its tools: a chunk of their own, fetched when an editor first mounts. */
async function loadEditor() {
  const [editor, header, list, marker, inlineCode] = await Promise.all([
    import('@editorjs/editorjs/dist/editorjs.mjs'),
    import('@editorjs/header'),
    import('@editorjs/list'),
    import('@editorjs/marker'),
    import('@editorjs/inline-code'),
  ]);
  return {
    EditorJS: editor.default,
    Header: header.default,
    List: list.default,
    Marker: marker.default,
    InlineCode: inlineCode.default,
  };
}

/**
 * Editor.js 2.27.0 (the spec's editor) with paragraph, header, list, marker and inline code; its
 * own chunk, loaded on the editor route only, once the page is up (the title and the tabs do
 * not wait for it). It is made once per `docKey` (an article's language)
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
  /** Set while the editor is up: its blocks now, whatever it has not told yet. */
  readonly saveNow: { current: (() => Promise<unknown>) | null };
}) {
  const { t } = useLingui();
  const holder = useRef<HTMLDivElement>(null);
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;
  const initial = useRef(props.initial);
  initial.current = props.initial;
  // Read when the editor is made: a change of language must not rebuild it from stale data.
  const placeholder = useRef('');
  placeholder.current = t`Write here: press Tab for headings and lists`;
  const [failed, setFailed] = useState(false);
  const saveNow = props.saveNow;
  useEffect(() => {
    const element = holder.current;
    if (element === null) return;
    let editor: EditorJS | undefined;
    let closed = false;
    void loadEditor().then(
      ({ EditorJS: Editor, Header, List, Marker, InlineCode }) => {
        if (closed) return;
        editor = new Editor({
          holder: element,
          data: forEditor(initial.current) as OutputData,
          placeholder: placeholder.current,
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
        const made = editor;
        // Its API is there once it is ready (before, `save` is not yet a method).
        saveNow.current = async () => {
          await made.isReady;
          return made.save();
        };
      },
      () => {
        if (!closed) setFailed(true);
      },
    );
    return () => {
      closed = true;
      saveNow.current = null;
      const going = editor;
      editor = undefined;
      // What it holds and has not told yet goes out before it is taken down (a tab switch).
      void going?.isReady
        .then(async () => {
          onChange.current(await going.save());
        })
        .catch(() => undefined)
        .finally(() => going.destroy());
    };
  }, [props.docKey, saveNow]);
  if (failed)
    return (
      <Text c="red" size="sm" role="alert">
        <Trans>The editor could not be loaded: check the connection and reload the page.</Trans>
      </Text>
    );
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
