import { useEffect, useRef, useState } from 'react';
import { Trans, useLingui } from '@lingui/react/macro';
import { Alert, Text } from '@mantine/core';
import type EditorJS from '@editorjs/editorjs/dist/editorjs.mjs';
import type { OutputData } from '@editorjs/editorjs/dist/editorjs.mjs';
import { syncWorker } from '../../../sync/worker';
import { editorMessages } from './editor-texts';
import { forEditor } from './publish';
import classes from './block-editor.module.css';

/** Editor.js and its tools: a chunk of their own, fetched when an editor first mounts. */
async function loadEditor() {
  const [editor, header, list, marker, inlineCode, image] = await Promise.all([
    import('@editorjs/editorjs/dist/editorjs.mjs'),
    import('@editorjs/header'),
    import('@editorjs/list'),
    import('@editorjs/marker'),
    import('@editorjs/inline-code'),
    import('@editorjs/image'),
  ]);
  return {
    EditorJS: editor.default,
    Header: header.default,
    List: list.default,
    Marker: marker.default,
    InlineCode: inlineCode.default,
    Image: image.default,
  };
}

/** The editor's blocks as read now, and whether keys were pressed while they were read. */
export interface SavedNow {
  readonly doc: OutputData;
  readonly typedSince: boolean;
}

/**
 * A saved document of its own: a tool may answer its live data object (the image tool does), which
 * its next save changes in place. Told as is, the blocks written a moment ago would change with
 * the caption typed since and the page would take the new caption for one already written.
 */
function copied(doc: OutputData): OutputData {
  return structuredClone(doc);
}

/**
 * An editor's last blocks as it closes, per document, until they are read: one made again for
 * the same document (the author back on its tab at once) starts from them, not from what its page
 * had when it mounted (the closing editor may still be waiting for a picture being kept).
 */
const closing = new Map<string, Promise<OutputData | undefined>>();

/** Once the editor of `docKey` that is going has told its last blocks (at once if none is). */
export function editorClosed(docKey: string): Promise<unknown> {
  return closing.get(docKey) ?? Promise.resolve();
}

/**
 * How long a read waits for pictures being kept (a worker that never answers must not hang a
 * Publish or a tab for good: past it, a picture not kept yet is left out, as before).
 */
const KEEPING_WAIT_MS = 30_000;

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** After every picture being kept has been given to the image tool (or failed), or the wait's end. */
async function afterKeeping(keeping: ReadonlySet<Promise<unknown>>): Promise<void> {
  const until = Date.now() + KEEPING_WAIT_MS;
  while (keeping.size > 0 && Date.now() < until) {
    await Promise.race([Promise.allSettled([...keeping]), delay(until - Date.now())]);
    // The image tool takes an answer in a chain of promise callbacks of its own: all have run
    // by the next task.
    await delay(0);
  }
}

/** What the image tool is given back for a picture: our file's id and a URL to show it by. */
interface ShownFile {
  readonly url: string;
  readonly file_id: string;
}

/**
 * The document as the editor takes it, its pictures given object URLs of their files' bytes
 * (kept here, waiting to upload, or read from the server): the stored document names files by
 * id only. Answers the URLs made, to revoke when the editor goes.
 */
async function withPictures(content: unknown): Promise<{ doc: OutputData; urls: string[] }> {
  const doc = forEditor(content);
  const urls: string[] = [];
  const blocks = await Promise.all(
    doc.blocks.map(async (block) => {
      const data = (block as { type?: unknown; data?: { file?: { file_id?: unknown } } }).data;
      const fileId = data?.file?.file_id;
      if ((block as { type?: unknown }).type !== 'image' || typeof fileId !== 'string')
        return block;
      const read = await syncWorker().files.read(fileId, 'content');
      // A picture not to be had here now still keeps its place (and its file) in the document.
      const url = 'data' in read ? URL.createObjectURL(read.data) : '';
      if (url !== '') urls.push(url);
      return { ...(block as object), data: { ...data, file: { file_id: fileId, url } } };
    }),
  );
  return { doc: { ...doc, blocks } as OutputData, urls };
}

/**
 * Editor.js 2.27.0 (the spec's editor) with paragraph, header, list, image, marker and inline
 * code; its own chunk, loaded on the editor route only, once the page is up (the title and the
 * tabs do not wait for it). A picture is added through the file path (DESIGN.md §9): a file of
 * the article, kept in the worker and uploaded when the network allows, so it shows offline and
 * after a reload. It is made once per `docKey` (an article's language)
 * from `initial`, and tells every change through `onChange` with the editor's saved document;
 * later changes of `initial` (its own saves coming back from the store) do not reset it.
 */
export function BlockEditor(props: {
  readonly docKey: string;
  /** The article whose pictures these are (their files' owner). */
  readonly articleId: string;
  readonly initial: unknown;
  readonly label: string;
  /**
   * `typedSince`: keys were pressed after the editor began reading these blocks (they are not in
   * `doc`; another `onChange` follows them).
   */
  readonly onChange: (doc: OutputData, typedSince: boolean) => void;
  /** At once on every keystroke (Editor.js tells `onChange` a moment later). */
  readonly onInput: () => void;
  /** Set while the editor is up: its blocks now, whatever it has not told yet. */
  readonly saveNow: { current: (() => Promise<SavedNow>) | null };
}) {
  const { t, i18n } = useLingui();
  const holder = useRef<HTMLDivElement>(null);
  const onChange = useRef(props.onChange);
  onChange.current = props.onChange;
  const initial = useRef(props.initial);
  initial.current = props.initial;
  // Read when the editor is made: a change of language must not rebuild it from stale data.
  const texts = useRef({ placeholder: '', caption: '', select: '', byUrl: '' });
  texts.current = {
    placeholder: t`Write here: press Tab for headings and lists`,
    caption: t`Caption`,
    select: t`Select an image`,
    byUrl: t`Pictures are added from files: save the picture and select it.`,
  };
  // The editor's own words in the author's language (read when it is made).
  const messages = useRef<object>({});
  messages.current = editorMessages(i18n);
  const articleId = useRef(props.articleId);
  articleId.current = props.articleId;
  const [failed, setFailed] = useState(false);
  const [uploadError, setUploadError] = useState<string | null>(null);
  const saveNow = props.saveNow;
  // Keystrokes so far: a document read is told with whether any came after the read began
  // (Editor.js tells a change up to 400 ms after it, and reading takes a moment on a busy tablet:
  // a keystroke in between is in neither, so the page must not say "saved").
  const typed = useRef(0);
  // Pictures chosen whose files the worker is still keeping: the image tool leaves a picture
  // without its file out of a save, so a read waits for them (a Publish or a tab switch right
  // after choosing one left it out of the text for good).
  const keeping = useRef(new Set<Promise<unknown>>());
  const read = async (editor: EditorJS): Promise<SavedNow> => {
    await afterKeeping(keeping.current);
    const at = typed.current;
    const doc = copied(await editor.save());
    return { doc, typedSince: typed.current !== at };
  };
  // Taken as the editor renders, beside its page's own start (unsent-edits.ts): an editor that
  // closed has by then either told its last blocks or is still reading them (here). One per
  // document: the page gives each its own element (`key`).
  const [closed] = useState(() => closing.get(props.docKey));
  useEffect(() => {
    const element = holder.current;
    if (element === null) return;
    let editor: EditorJS | undefined;
    let gone = false;
    // Every object URL this editor made, revoked once it has gone.
    const urls: string[] = [];
    const keep = async (file: Blob): Promise<{ success: 1; file: ShownFile }> => {
      setUploadError(null);
      const name = file instanceof File ? file.name : 'picture';
      const added = await syncWorker().files.add(
        { article: articleId.current },
        'photo',
        file,
        name,
      );
      if ('error' in added) {
        setUploadError(added.error.message);
        throw new Error(added.error.message);
      }
      const url = URL.createObjectURL(file);
      urls.push(url);
      return { success: 1, file: { url, file_id: added.data.id } };
    };
    const upload = (file: Blob) => {
      const kept = keep(file);
      keeping.current.add(kept);
      const done = () => keeping.current.delete(kept);
      kept.then(done, done);
      return kept;
    };
    // The closing editor's read ends by itself (its wait for pictures is bounded).
    const start = (closed ?? Promise.resolve(undefined)).then((last) =>
      withPictures(last ?? initial.current),
    );
    const ready = Promise.all([loadEditor(), start]).then(
      ([{ EditorJS: Editor, Header, List, Marker, InlineCode, Image }, start]) => {
        urls.push(...start.urls);
        if (gone) {
          for (const url of urls) URL.revokeObjectURL(url);
          throw new Error('The editor went before it was made');
        }
        editor = new Editor({
          holder: element,
          data: start.doc,
          placeholder: texts.current.placeholder,
          minHeight: 160,
          i18n: { messages: messages.current },
          tools: {
            header: { class: Header, config: { levels: [2, 3, 4], defaultLevel: 2 } },
            list: { class: List, inlineToolbar: true },
            image: {
              class: Image,
              config: {
                // Photos' types (the file kind's limits are checked again when added).
                types: 'image/jpeg,image/png,image/webp,image/gif',
                captionPlaceholder: texts.current.caption,
                buttonContent: texts.current.select,
                uploader: {
                  uploadByFile: upload,
                  // No picture is fetched from another origin (a pasted link is refused).
                  uploadByUrl: () => {
                    setUploadError(texts.current.byUrl);
                    return Promise.reject(new Error(texts.current.byUrl));
                  },
                },
              },
            },
            marker: { class: Marker },
            inlineCode: { class: InlineCode },
          },
          onChange: (api) => {
            const at = typed.current;
            void api.saver.save().then((doc) => {
              if (!gone) onChange.current(copied(doc), typed.current !== at);
            });
          },
        });
        return editor;
      },
    );
    ready.catch(() => {
      if (!gone) setFailed(true);
    });
    // Asked before the editor is made (a Publish as the tab opens), a read waits for it; its API
    // is there once it is ready (before, `save` is not yet a method).
    saveNow.current = async () => {
      const now = await ready;
      await now.isReady;
      return read(now);
    };
    const docKey = props.docKey;
    return () => {
      gone = true;
      saveNow.current = null;
      const going = editor;
      editor = undefined;
      if (going === undefined) return;
      // What it holds and has not told yet goes out before it is taken down (a tab switch).
      const last = going.isReady
        .then(async () => {
          const now = await read(going);
          onChange.current(now.doc, now.typedSince);
          return now.doc;
        })
        .catch(() => undefined)
        .finally(() => {
          going.destroy();
          for (const url of urls) URL.revokeObjectURL(url);
        });
      closing.set(docKey, last);
      void last.then(() => {
        if (closing.get(docKey) === last) closing.delete(docKey);
      });
    };
  }, [props.docKey, saveNow, closed]);
  if (failed)
    return (
      <Text c="red" size="sm" role="alert">
        <Trans>The editor could not be loaded: check the connection and reload the page.</Trans>
      </Text>
    );
  return (
    <>
      <div
        ref={holder}
        className={classes.editor}
        role="group"
        aria-label={props.label}
        onInput={() => {
          typed.current += 1;
          props.onInput();
        }}
        data-testid="block-editor"
      />
      {uploadError === null ? null : (
        <Alert color="red" variant="light" role="alert" data-testid="picture-error">
          {uploadError}
        </Alert>
      )}
    </>
  );
}
