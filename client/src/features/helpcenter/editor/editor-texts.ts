import { msg } from '@lingui/core/macro';
import type { I18n } from '@lingui/core';

/*
 * Editor.js 2.27's own words and those of its tools, in the author's language (its `i18n`
 * option: a dictionary keyed by the English texts, by namespace). The keys are the texts the
 * editor and the pinned tools ask for (header 2.8.1, list 1.9.0, image 2.9.3); the values go
 * through lingui like every text of the app.
 */
export function editorMessages(i18n: I18n): object {
  const t = (descriptor: ReturnType<typeof msg>) => i18n._(descriptor);
  return {
    ui: {
      blockTunes: {
        toggler: {
          'Click to tune': t(msg`Click to tune`),
          'or drag to move': t(msg`or drag to move`),
        },
      },
      inlineToolbar: { converter: { 'Convert to': t(msg`Convert to`) } },
      toolbar: { toolbox: { Add: t(msg`Add`) } },
      popover: { Filter: t(msg`Filter`), 'Nothing found': t(msg`Nothing found`) },
    },
    toolNames: {
      Text: t(msg`Text`),
      Heading: t(msg`Heading`),
      List: t(msg`List`),
      Image: t(msg`Image`),
      Marker: t(msg`Marker`),
      InlineCode: t(msg`Inline code`),
      Link: t(msg`Link`),
      Bold: t(msg`Bold`),
      Italic: t(msg`Italic`),
    },
    tools: {
      link: { 'Add a link': t(msg`Add a link`) },
      stub: {
        'The block can not be displayed correctly.': t(
          msg`This part of the article cannot be shown here.`,
        ),
      },
      header: {
        'Heading 2': t(msg`Heading 2`),
        'Heading 3': t(msg`Heading 3`),
        'Heading 4': t(msg`Heading 4`),
      },
      list: { Ordered: t(msg`Numbered`), Unordered: t(msg`Bulleted`) },
      image: {
        'With border': t(msg`With border`),
        'Stretch image': t(msg`Full width`),
        'With background': t(msg`With background`),
        'Select an Image': t(msg`Select an image`),
        Caption: t(msg`Caption`),
        'Couldn’t upload image. Please try another.': t(
          msg`The picture could not be added: see the message below the editor.`,
        ),
      },
    },
    blockTunes: {
      delete: { Delete: t(msg`Delete`), 'Click to delete': t(msg`Click to delete`) },
      moveUp: { 'Move up': t(msg`Move up`) },
      moveDown: { 'Move down': t(msg`Move down`) },
    },
  };
}
