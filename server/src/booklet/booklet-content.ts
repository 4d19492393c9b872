import type {
  BookletKind,
  GatewayUpdateState,
  Language,
  ServiceRequestState,
} from '@plant/shared-schema';

/*
 * What a service booklet's PDF shows (issue 37 item 3), read and cut to the reader's access by
 * booklet.service.ts, drawn by booklet-pdf.ts on the PDF thread (structured-cloned: plain data,
 * the pictures as bytes). Texts are the stored ones (form labels already in the reader's
 * language); the PDF's own words and the formatting of numbers and times are the drawer's.
 */

/** A photo or signature, made small as a JPEG by the service (pdfkit embeds it as it is). */
export interface BookletImage {
  readonly jpeg: Uint8Array;
  readonly width: number;
  readonly height: number;
}

/** One field's answer as the form's field type reads it. */
export type BookletAnswer =
  | { readonly type: 'empty' }
  | { readonly type: 'text'; readonly text: string }
  | { readonly type: 'tick'; readonly value: boolean }
  | { readonly type: 'number'; readonly value: number; readonly unit: string }
  | { readonly type: 'time'; readonly at: number }
  | { readonly type: 'options'; readonly labels: readonly string[] }
  | {
      readonly type: 'files';
      readonly field: 'photo' | 'signature';
      readonly images: readonly BookletImage[];
      /** Files named by the answer whose picture is not in the PDF (not stored, not an image, over the limit). */
      readonly without: number;
    };

export interface BookletField {
  readonly label: string;
  readonly answer: BookletAnswer;
}

/** One item of the timeline; `at` null when the reader may not see its time. */
export type BookletItem =
  | {
      readonly kind: 'entry';
      readonly at: number | null;
      /** The form's version it was filled with; null when the reader may not see forms. */
      readonly form: { readonly name: string; readonly version: number } | null;
      readonly fields: readonly BookletField[];
      /** The answers are hidden from the reader's role. */
      readonly answersHidden: boolean;
      readonly counter: number | null;
    }
  | {
      readonly kind: 'ack';
      readonly at: number | null;
      /** The alarm's name; null when not known to the reader. */
      readonly alarm: string | null;
      readonly note: string;
    }
  | {
      readonly kind: 'service';
      readonly at: number | null;
      readonly title: string;
      /** Null when the stored request has none the reader may see. */
      readonly state: ServiceRequestState | null;
      readonly description: string;
    }
  | {
      readonly kind: 'deployment';
      readonly at: number | null;
      /** The release's name and version; null when not known to the reader. */
      readonly release: string | null;
      readonly state: GatewayUpdateState | null;
    };

export interface BookletContent {
  /** The asset's name. */
  readonly asset: string;
  readonly lang: Language;
  /** The IANA zone times are written in. */
  readonly tz: string;
  readonly generatedAt: number;
  /** The kinds shown: those asked for that the reader may view. */
  readonly kinds: readonly BookletKind[];
  /** Kinds asked for that the reader may not view (named, so the PDF does not look complete). */
  readonly withheld: readonly BookletKind[];
  /** Newest first. */
  readonly items: readonly BookletItem[];
  /** What the limits left out: older items, and pictures past the images' limit. */
  readonly omitted: { readonly items: number; readonly images: number };
}
