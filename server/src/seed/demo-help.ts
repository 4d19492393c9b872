import type { Language } from '@plant/shared-schema';
import type { Db } from '../db/database';
import type { Clock } from '../lib/clock';
import { seedWrites } from './seed-writes';

/**
 * The demo help centre (issue 33 item 8): a handful of published articles in German and English,
 * among them article 136 (spec 001 §2: exporting a tag table from a Siemens engineering tool),
 * which the demo's motor alarm links. Written through the same code as an author's writes.
 */

type Block =
  | { type: 'paragraph'; text: string }
  | { type: 'header'; text: string; level: number }
  | { type: 'list'; style: 'ordered' | 'unordered'; items: string[] };

interface DemoText {
  readonly title: string;
  readonly blocks: readonly Block[];
}

interface DemoArticle {
  readonly number: number;
  readonly tags: readonly string[];
  readonly categories: readonly string[];
  readonly texts: Partial<Record<Language, DemoText>>;
}

export const DEMO_TAG_TABLE_ARTICLE = 136;

export const DEMO_ARTICLES: readonly DemoArticle[] = [
  {
    number: DEMO_TAG_TABLE_ARTICLE,
    tags: ['S7', 'TIA Portal', 'Gateway'],
    categories: ['Gateways'],
    texts: {
      de: {
        title: 'Variablentabelle aus dem TIA Portal exportieren',
        blocks: [
          {
            type: 'paragraph',
            text: 'Damit das Gateway die Werte einer <b>S7-Steuerung</b> lesen kann, braucht es die Adressen der Variablen. Sie stehen in der Variablentabelle des TIA Portals.',
          },
          { type: 'header', text: 'Export', level: 2 },
          {
            type: 'list',
            style: 'ordered',
            items: [
              'Projekt im TIA Portal öffnen und die Steuerung in der Projektnavigation wählen.',
              'Unter <i>PLC-Variablen</i> die Variablentabelle öffnen.',
              'In der Symbolleiste <b>Exportieren</b> wählen und als Format Excel (.xlsx) angeben.',
              'Die Datei in der Plattform beim Gateway unter <i>Datenpunkte</i> importieren.',
            ],
          },
          {
            type: 'paragraph',
            text: 'Optimierte Bausteinzugriffe haben keine absoluten Adressen: schalten Sie sie für die Datenbausteine ab, die das Gateway lesen soll.',
          },
          {
            type: 'paragraph',
            text: 'Zeigt ein Datenstrom unplausible Werte (etwa einen Öldruck, der nicht zur Anlage passt), vergleichen Sie zuerst seine Adresse mit der Variablentabelle.',
          },
        ],
      },
      en: {
        title: 'Exporting a tag table from TIA Portal',
        blocks: [
          {
            type: 'paragraph',
            text: 'For the gateway to read the values of an <b>S7 controller</b>, it needs the addresses of its tags. They are in the TIA Portal’s tag table.',
          },
          { type: 'header', text: 'Export', level: 2 },
          {
            type: 'list',
            style: 'ordered',
            items: [
              'Open the project in TIA Portal and select the controller in the project tree.',
              'Under <i>PLC tags</i>, open the tag table.',
              'Choose <b>Export</b> in the toolbar and Excel (.xlsx) as the format.',
              'Import the file at the gateway’s <i>Datapoints</i> in the platform.',
            ],
          },
          {
            type: 'paragraph',
            text: 'Optimised block access leaves no absolute addresses: turn it off for the data blocks the gateway should read.',
          },
          {
            type: 'paragraph',
            text: 'When a data stream shows readings that make no sense (an oil pressure that does not fit the machine), compare its address with the tag table first.',
          },
        ],
      },
    },
  },
  {
    number: 101,
    tags: ['Motor', 'Alarm'],
    categories: ['Alarms'],
    texts: {
      de: {
        title: 'Motortemperatur zu hoch',
        blocks: [
          {
            type: 'paragraph',
            text: 'Der Alarm <b>Motor too hot</b> meldet eine Motortemperatur über 80 °C.',
          },
          {
            type: 'list',
            style: 'unordered',
            items: [
              'Lüftergitter auf Verschmutzung prüfen.',
              'Last des Antriebs mit dem Datenstrom <i>Motor current</i> vergleichen.',
              'Bei wiederholtem Auftreten den Service rufen.',
            ],
          },
        ],
      },
      en: {
        title: 'Motor temperature too high',
        blocks: [
          {
            type: 'paragraph',
            text: 'The alarm <b>Motor too hot</b> reports a motor temperature above 80 °C.',
          },
          {
            type: 'list',
            style: 'unordered',
            items: [
              'Check the fan grille for dirt.',
              'Compare the drive’s load with the data stream <i>Motor current</i>.',
              'If it happens again, call service.',
            ],
          },
        ],
      },
    },
  },
  {
    number: 102,
    tags: ['Hydraulics', 'Maintenance'],
    categories: ['Maintenance'],
    texts: {
      de: {
        title: 'Ölwechsel an der Presse',
        blocks: [
          {
            type: 'paragraph',
            text: 'Das Hydrauliköl wird alle 2.000 Betriebsstunden gewechselt. Die Presse steht dafür still und ist drucklos.',
          },
          {
            type: 'list',
            style: 'ordered',
            items: [
              'Presse abschalten und gegen Wiedereinschalten sichern.',
              'Öl über den Ablasshahn in einen Auffangbehälter ablassen.',
              'Filter tauschen, neues Öl bis zur Markierung einfüllen.',
            ],
          },
        ],
      },
      en: {
        title: 'Changing the press’s oil',
        blocks: [
          {
            type: 'paragraph',
            text: 'The hydraulic oil is changed every 2,000 operating hours. The press is stopped and without pressure meanwhile.',
          },
          {
            type: 'list',
            style: 'ordered',
            items: [
              'Switch the press off and lock it out.',
              'Drain the oil through the drain valve into a container.',
              'Change the filter and fill in new oil up to the mark.',
            ],
          },
        ],
      },
    },
  },
  {
    number: 103,
    tags: ['Site', 'Delivery'],
    categories: ['Site'],
    texts: {
      de: {
        title: 'Anlieferung von der Straßenseite',
        blocks: [
          {
            type: 'paragraph',
            text: 'Ersatzteile werden an Tor 2 auf der Straßenseite angeliefert. Melden Sie Lieferungen vorab beim Werkschutz an.',
          },
        ],
      },
    },
  },
  {
    number: 104,
    tags: ['Gateway', 'Network'],
    categories: ['Gateways'],
    texts: {
      en: {
        title: 'A gateway shows offline',
        blocks: [
          {
            type: 'paragraph',
            text: 'A gateway is offline when the server has not heard from it for a minute. Its buffer keeps the values meanwhile: nothing is lost while it is away.',
          },
          {
            type: 'list',
            style: 'unordered',
            items: [
              'Check the gateway’s power and network cable.',
              'Check that the plant’s firewall lets it reach the server on port 443.',
            ],
          },
        ],
      },
    },
  },
];

function documentOf(blocks: readonly Block[], time: number) {
  return {
    time,
    version: '2.27.0',
    blocks: blocks.map((b, i) => ({
      id: `demo${i}`,
      type: b.type,
      data:
        b.type === 'list'
          ? { style: b.style, items: b.items.map((content) => ({ content, items: [] })) }
          : b.type === 'header'
            ? { text: b.text, level: b.level }
            : { text: b.text },
    })),
  };
}

/** Seeds the demo articles, each with its texts published. Returns article 136's id. */
export async function seedDemoHelp(trx: Db, clock: Clock, accountId: string): Promise<string> {
  const { create, update } = seedWrites(trx, clock, accountId, 'demo help');
  let tagTable = '';
  for (const article of DEMO_ARTICLES) {
    const languages = Object.keys(article.texts) as Language[];
    const id = await create('articles', {
      number: article.number,
      tags: article.tags,
      categories: article.categories,
      languages,
    });
    for (const lang of languages) {
      const text = article.texts[lang];
      if (text === undefined) continue;
      const body = {
        article_id: id,
        lang,
        title: text.title,
        content: documentOf(text.blocks, clock.now()),
      };
      await create('article_drafts', body);
      await create('article_texts', body);
    }
    await update('articles', id, { state: 'published' });
    if (article.number === DEMO_TAG_TABLE_ARTICLE) tagTable = id;
  }
  return tagTable;
}
