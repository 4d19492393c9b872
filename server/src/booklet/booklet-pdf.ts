import PDFDocument from 'pdfkit';
import {
  BOOKLET_LIMITS,
  type BookletKind,
  type GatewayUpdateState,
  type Language,
  type ServiceRequestState,
} from '@plant/shared-schema';
import { registerFonts } from '../reports/pdf';
import type { BookletAnswer, BookletContent, BookletImage, BookletItem } from './booklet-content';

/**
 * A service booklet's PDF (issue 37 item 3), drawn on the PDF thread like the reports': A4, every
 * page headed by the asset's name and the time it was made, the items newest first (date and kind,
 * then for a filled-in form its version and each field's label and answer with its photos and
 * signature, for the others their few words), page numbers in the footer. The text flows onto
 * new pages by itself (the page's margins leave the header and footer free); headers and footers
 * are written last, on every buffered page.
 */

const A4 = { width: 595.28, height: 841.89 };
const MARGIN = 40;
const HEADER_H = 46;
const FOOTER_H = 24;
const TOP = MARGIN + HEADER_H;
const BOTTOM = A4.height - MARGIN - FOOTER_H;
const WIDTH = A4.width - 2 * MARGIN;
const LABEL_W = WIDTH * 0.34;
const ANSWER_X = MARGIN + LABEL_W + 8;
const ANSWER_W = WIDTH - LABEL_W - 8;
/** A picture's box: drawn to fit inside, several to a row. */
const PICTURE = { width: 150, height: 110, gap: 8 };
const GREY = '#868e96';
const INK = '#212529';
const RULE = '#ced4da';

/** The PDF's own words: English, and German (the others fall back to English). */
interface Words {
  readonly title: (asset: string) => string;
  readonly generated: string;
  readonly shows: string;
  readonly withheld: string;
  readonly kinds: Readonly<Record<BookletKind, string>>;
  readonly kind: Readonly<Record<BookletKind, string>>;
  readonly version: (n: number) => string;
  readonly formMissing: string;
  readonly ack: (alarm: string) => string;
  readonly service: (title: string) => string;
  readonly update: (release: string) => string;
  readonly state: (state: string) => string;
  /** A service request's and a gateway update's states in words (the app's own words). */
  readonly serviceStates: Readonly<Record<ServiceRequestState, string>>;
  readonly updateStates: Readonly<Record<GatewayUpdateState, string>>;
  readonly yes: string;
  readonly no: string;
  readonly counter: (value: string) => string;
  readonly answersHidden: string;
  readonly noTime: string;
  readonly nothing: string;
  readonly olderLeftOut: (n: number) => string;
  readonly picturesLeftOut: (n: number) => string;
  readonly picturesMissing: (n: number, field: 'photo' | 'signature') => string;
}

const EN: Words = {
  title: (asset) => `Service booklet of ${asset}`,
  generated: 'Made on',
  shows: 'Shows',
  withheld: 'Not shown (not permitted)',
  kinds: {
    entry: 'Filled-in forms',
    ack: 'Acknowledged alarms',
    service: 'Service requests',
    deployment: 'Updates',
  },
  kind: {
    entry: 'Filled-in form',
    ack: 'Acknowledged alarm',
    service: 'Service request',
    deployment: 'Update',
  },
  version: (n) => `version ${n}`,
  formMissing: 'A filled-in form (its form is not available)',
  ack: (alarm) => `Alarm acknowledged: ${alarm}`,
  service: (title) => `Service request: ${title}`,
  update: (release) => `Update of its gateway to ${release}`,
  state: (state) => `State: ${state}`,
  serviceStates: {
    open: 'Open',
    assigned: 'Assigned',
    in_progress: 'In progress',
    resolved: 'Resolved',
    closed: 'Closed',
  },
  updateStates: {
    pending: 'Pending',
    downloading: 'Downloading',
    installing: 'Installing',
    succeeded: 'Succeeded',
    failed: 'Failed',
    rolled_back: 'Rolled back',
  },
  yes: 'Yes',
  no: 'No',
  counter: (value) => `Counter when done: ${value}`,
  answersHidden: 'The answers are not shown to you.',
  noTime: 'waiting to be sent',
  nothing: 'Nothing in the service booklet yet.',
  olderLeftOut: (n) =>
    `${n} older ${n === 1 ? 'item is' : 'items are'} left out (at most ${BOOKLET_LIMITS.items} in one PDF).`,
  picturesLeftOut: (n) =>
    `${n} ${n === 1 ? 'photo or signature is' : 'photos and signatures are'} left out (at most ${BOOKLET_LIMITS.images} in one PDF).`,
  picturesMissing: (n, field) =>
    field === 'signature'
      ? `${n === 1 ? 'A signature is' : `${n} signatures are`} not in the PDF.`
      : `${n === 1 ? 'A photo is' : `${n} photos are`} not in the PDF.`,
};

const DE: Words = {
  title: (asset) => `Serviceheft von ${asset}`,
  generated: 'Erstellt am',
  shows: 'Zeigt',
  withheld: 'Nicht gezeigt (keine Berechtigung)',
  kinds: {
    entry: 'Ausgefüllte Formulare',
    ack: 'Quittierte Alarme',
    service: 'Serviceanfragen',
    deployment: 'Updates',
  },
  kind: {
    entry: 'Ausgefülltes Formular',
    ack: 'Quittierter Alarm',
    service: 'Serviceanfrage',
    deployment: 'Update',
  },
  version: (n) => `Version ${n}`,
  formMissing: 'Ein ausgefülltes Formular (sein Formular ist nicht verfügbar)',
  ack: (alarm) => `Alarm quittiert: ${alarm}`,
  service: (title) => `Serviceanfrage: ${title}`,
  update: (release) => `Update seines Gateways auf ${release}`,
  state: (state) => `Status: ${state}`,
  serviceStates: {
    open: 'Offen',
    assigned: 'Zugewiesen',
    in_progress: 'In Bearbeitung',
    resolved: 'Gelöst',
    closed: 'Geschlossen',
  },
  updateStates: {
    pending: 'Anstehend',
    downloading: 'Wird heruntergeladen',
    installing: 'Wird installiert',
    succeeded: 'Erfolgreich',
    failed: 'Fehlgeschlagen',
    rolled_back: 'Zurückgesetzt',
  },
  yes: 'Ja',
  no: 'Nein',
  counter: (value) => `Zählerstand bei Erledigung: ${value}`,
  answersHidden: 'Die Antworten werden Ihnen nicht gezeigt.',
  noTime: 'wartet auf das Senden',
  nothing: 'Noch nichts im Serviceheft.',
  olderLeftOut: (n) =>
    `${n} ${n === 1 ? 'älterer Eintrag ist' : 'ältere Einträge sind'} ausgelassen (höchstens ${BOOKLET_LIMITS.items} in einem PDF).`,
  picturesLeftOut: (n) =>
    `${n} ${n === 1 ? 'Foto oder Unterschrift ist' : 'Fotos und Unterschriften sind'} ausgelassen (höchstens ${BOOKLET_LIMITS.images} in einem PDF).`,
  picturesMissing: (n, field) =>
    field === 'signature'
      ? `${n === 1 ? 'Eine Unterschrift ist' : `${n} Unterschriften sind`} nicht im PDF.`
      : `${n === 1 ? 'Ein Foto ist' : `${n} Fotos sind`} nicht im PDF.`,
};

function bookletWords(lang: Language): Words {
  return lang === 'de' ? DE : EN;
}

/** What the page shows, in order: every text made before any is drawn (the font depends on them). */
type Block =
  /** `keep`: room wanted below it on the same page (an item's first line keeps its title with it). */
  | { readonly type: 'meta'; readonly text: string; readonly keep?: number }
  | { readonly type: 'title'; readonly text: string }
  | { readonly type: 'text'; readonly text: string }
  | {
      readonly type: 'field';
      readonly label: string;
      readonly answer: string;
      readonly images: readonly BookletImage[];
    }
  | { readonly type: 'rule' };

/** Numbers and times in the reader's language and zone ('plain' is English). */
class Formats {
  private readonly number: Intl.NumberFormat;
  private readonly time: Intl.DateTimeFormat;

  constructor(lang: Language, tz: string) {
    const locale = lang === 'plain' ? 'en' : lang;
    this.number = new Intl.NumberFormat(locale);
    this.time = new Intl.DateTimeFormat(locale, {
      dateStyle: 'medium',
      timeStyle: 'short',
      timeZone: tz,
    });
  }

  num(value: number): string {
    return this.number.format(value);
  }

  at(ms: number): string {
    return this.time.format(new Date(ms));
  }
}

function answerText(answer: BookletAnswer, words: Words, f: Formats): string {
  switch (answer.type) {
    case 'empty':
      return '–';
    case 'text':
      return answer.text;
    case 'tick':
      return answer.value ? words.yes : words.no;
    case 'number':
      return answer.unit === '' ? f.num(answer.value) : `${f.num(answer.value)} ${answer.unit}`;
    case 'time':
      return f.at(answer.at);
    case 'options':
      return answer.labels.join(', ');
    case 'files':
      if (answer.without > 0) return words.picturesMissing(answer.without, answer.field);
      return answer.images.length === 0 ? '–' : '';
    default: {
      const never: never = answer;
      throw new Error(`unknown answer ${JSON.stringify(never)}`);
    }
  }
}

function itemBlocks(item: BookletItem, words: Words, f: Formats): Block[] {
  const when = item.at === null ? words.noTime : f.at(item.at);
  const blocks: Block[] = [{ type: 'meta', text: `${when} · ${words.kind[item.kind]}`, keep: 60 }];
  switch (item.kind) {
    case 'entry':
      blocks.push({
        type: 'title',
        text:
          item.form === null
            ? words.formMissing
            : `${item.form.name} · ${words.version(item.form.version)}`,
      });
      if (item.answersHidden) blocks.push({ type: 'text', text: words.answersHidden });
      for (const field of item.fields)
        blocks.push({
          type: 'field',
          label: field.label,
          answer: answerText(field.answer, words, f),
          images: field.answer.type === 'files' ? field.answer.images : [],
        });
      if (item.counter !== null)
        blocks.push({ type: 'meta', text: words.counter(f.num(item.counter)) });
      break;
    case 'ack':
      blocks.push({ type: 'title', text: words.ack(item.alarm ?? '–') });
      if (item.note !== '') blocks.push({ type: 'text', text: item.note });
      break;
    case 'service':
      blocks.push({ type: 'title', text: words.service(item.title) });
      blocks.push({
        type: 'meta',
        text: words.state(item.state === null ? '–' : words.serviceStates[item.state]),
      });
      if (item.description !== '') blocks.push({ type: 'text', text: item.description });
      break;
    case 'deployment':
      blocks.push({ type: 'title', text: words.update(item.release ?? '–') });
      blocks.push({
        type: 'meta',
        text: words.state(item.state === null ? '–' : words.updateStates[item.state]),
      });
      break;
    default: {
      const never: never = item;
      throw new Error(`unknown item ${JSON.stringify(never)}`);
    }
  }
  blocks.push({ type: 'rule' });
  return blocks;
}

/** The lines above the timeline: what it shows, what it leaves out. */
function introBlocks(content: BookletContent, words: Words): Block[] {
  const blocks: Block[] = [
    {
      type: 'meta',
      text: `${words.shows}: ${content.kinds.map((k) => words.kinds[k]).join(', ') || '–'}`,
    },
  ];
  if (content.withheld.length > 0)
    blocks.push({
      type: 'meta',
      text: `${words.withheld}: ${content.withheld.map((k) => words.kinds[k]).join(', ')}`,
    });
  if (content.omitted.items > 0)
    blocks.push({ type: 'meta', text: words.olderLeftOut(content.omitted.items) });
  if (content.omitted.images > 0)
    blocks.push({ type: 'meta', text: words.picturesLeftOut(content.omitted.images) });
  if (content.items.length === 0) blocks.push({ type: 'text', text: words.nothing });
  blocks.push({ type: 'rule' });
  return blocks;
}

function textsOf(blocks: readonly Block[]): string[] {
  return blocks.flatMap((b) => {
    switch (b.type) {
      case 'field':
        return [b.label, b.answer];
      case 'rule':
        return [];
      case 'meta':
      case 'title':
      case 'text':
        return [b.text];
      default: {
        const never: never = b;
        throw new Error(`unknown block ${JSON.stringify(never)}`);
      }
    }
  });
}

/** Draws blocks from the cursor down, onto new pages where they do not fit. */
class Flow {
  constructor(private readonly doc: PDFKit.PDFDocument) {}

  private style(bold: boolean, size: number, color: string): PDFKit.PDFDocument {
    return this.doc
      .font(bold ? 'bold' : 'regular')
      .fontSize(size)
      .fillColor(color);
  }

  /** Room for `h` points (a block taller than a page flows over pages from the top of one). */
  private need(h: number): void {
    if (this.doc.y + Math.min(h, BOTTOM - TOP) > BOTTOM) this.doc.addPage();
  }

  /**
   * A paragraph across the width, continued on the next page when long. Styled again after a new
   * page: pdfkit writes a colour into the page it is set on only.
   */
  private paragraph(text: string, look: readonly [boolean, number, string], keep = 0): void {
    this.style(...look);
    this.need(Math.max(this.doc.heightOfString(text, { width: WIDTH }), keep));
    this.style(...look);
    this.doc.text(text, MARGIN, this.doc.y, { width: WIDTH });
  }

  draw(block: Block): void {
    switch (block.type) {
      case 'meta':
        this.paragraph(block.text, [false, 8.5, GREY], block.keep);
        this.doc.moveDown(0.2);
        break;
      case 'title':
        this.paragraph(block.text, [true, 11, INK]);
        this.doc.moveDown(0.3);
        break;
      case 'text':
        this.paragraph(block.text, [false, 9.5, INK]);
        this.doc.moveDown(0.3);
        break;
      case 'field':
        this.field(block);
        break;
      case 'rule': {
        this.need(14);
        const y = this.doc.y + 5;
        this.doc
          .moveTo(MARGIN, y)
          .lineTo(MARGIN + WIDTH, y)
          .lineWidth(0.5)
          .strokeColor(RULE);
        this.doc.stroke();
        this.doc.y = y + 9;
        break;
      }
      default: {
        const never: never = block;
        throw new Error(`unknown block ${JSON.stringify(never)}`);
      }
    }
  }

  /**
   * A label and its answer side by side; the row starts where both fit (an answer taller than a
   * page flows on in its column), its pictures under the answer, rows of them on new pages.
   */
  private field(block: Extract<Block, { type: 'field' }>): void {
    const { doc } = this;
    this.style(false, 9, GREY);
    const labelH = doc.heightOfString(block.label, { width: LABEL_W });
    this.style(false, 9.5, INK);
    const answerH = block.answer === '' ? 0 : doc.heightOfString(block.answer, { width: ANSWER_W });
    const firstRow = block.images.length === 0 ? 0 : PICTURE.height + PICTURE.gap;
    this.need(Math.max(labelH, answerH + firstRow));
    const y = doc.y;
    const pages = doc.bufferedPageRange().count;
    this.style(false, 9, GREY);
    doc.text(block.label, MARGIN, y, { width: LABEL_W });
    const labelEnd = doc.y;
    let end = y;
    if (block.answer !== '') {
      this.style(false, 9.5, INK);
      doc.text(block.answer, ANSWER_X, y, { width: ANSWER_W });
      end = doc.y;
    }
    // Past a page break the answer's end is on the new page; else the lower of the two.
    doc.y = doc.bufferedPageRange().count > pages ? end : Math.max(labelEnd, end);
    this.pictures(block.images);
    doc.x = MARGIN;
    doc.moveDown(0.35);
  }

  /** Pictures in rows under the answer, each scaled into its box; a row that does not fit starts a page. */
  private pictures(images: readonly BookletImage[]): void {
    const { doc } = this;
    let x = ANSWER_X;
    let rowY = doc.y;
    let rowH = 0;
    images.forEach((image, i) => {
      if (i === 0 || x + PICTURE.width > MARGIN + WIDTH) {
        if (i > 0) doc.y = rowY + rowH + PICTURE.gap;
        this.need(PICTURE.height + PICTURE.gap);
        rowY = doc.y + 2;
        rowH = 0;
        x = ANSWER_X;
      }
      const scale = Math.min(PICTURE.width / image.width, PICTURE.height / image.height, 1);
      const w = image.width * scale;
      const h = image.height * scale;
      doc.image(Buffer.from(image.jpeg), x, rowY, { width: w, height: h });
      doc.rect(x, rowY, w, h).lineWidth(0.5).strokeColor(RULE).stroke();
      x += w + PICTURE.gap;
      rowH = Math.max(rowH, h);
    });
    if (images.length > 0) doc.y = rowY + rowH + PICTURE.gap;
  }
}

/** Every page's header (the asset, when it was made) and footer (page n of m), drawn last. */
function headersAndFooters(doc: PDFKit.PDFDocument, title: string, made: string): void {
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i += 1) {
    doc.switchToPage(i);
    const { top, bottom } = doc.page.margins;
    doc.page.margins.top = 0;
    doc.page.margins.bottom = 0;
    doc.font('bold').fontSize(13).fillColor(INK);
    doc.text(title, MARGIN, MARGIN, { width: WIDTH, lineBreak: false, ellipsis: true });
    doc.font('regular').fontSize(9).fillColor(GREY);
    doc.text(made, MARGIN, MARGIN + 20, { width: WIDTH, lineBreak: false, ellipsis: true });
    doc
      .moveTo(MARGIN, MARGIN + HEADER_H - 10)
      .lineTo(MARGIN + WIDTH, MARGIN + HEADER_H - 10)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
    doc.font('regular').fontSize(8).fillColor(GREY);
    doc.text(`${i + 1} / ${range.count}`, MARGIN, A4.height - MARGIN, {
      width: WIDTH,
      align: 'right',
      lineBreak: false,
    });
    doc.page.margins.top = top;
    doc.page.margins.bottom = bottom;
  }
}

/** The booklet's PDF as bytes. */
export function renderBookletPdf(content: BookletContent): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const words = bookletWords(content.lang);
    const formats = new Formats(content.lang, content.tz);
    const title = words.title(content.asset);
    const made = `${words.generated} ${formats.at(content.generatedAt)} (${content.tz})`;
    const blocks = [
      ...introBlocks(content, words),
      ...content.items.flatMap((item) => itemBlocks(item, words, formats)),
    ];
    const doc = new PDFDocument({
      size: 'A4',
      // The flow stays between the header and the footer; both are written into the margins last.
      margins: { top: TOP, bottom: A4.height - BOTTOM, left: MARGIN, right: MARGIN },
      bufferPages: true,
      compress: true,
      info: { Title: title, Producer: 'plant', Creator: 'plant' },
    });
    registerFonts(doc, [title, made, ...textsOf(blocks)]);
    const chunks: Buffer[] = [];
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
    try {
      const flow = new Flow(doc);
      for (const block of blocks) flow.draw(block);
      headersAndFooters(doc, title, made);
      doc.end();
    } catch (err) {
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}
