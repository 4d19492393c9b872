import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

/** Each catalogue arrives when its gate opens: the test decides the order. */
const gates = vi.hoisted(() => {
  const gate = () => {
    let open = () => {};
    const opened = new Promise<void>((resolve) => {
      open = resolve;
    });
    return { open, opened };
  };
  return { de: gate(), ru: gate() };
});

vi.mock('../locales/de/messages.po', async () => {
  await gates.de.opened;
  return { messages: { hello: 'Hallo' } };
});
vi.mock('../locales/en/messages.po', () => ({ messages: { hello: 'Hello' } }));
vi.mock('../locales/ru/messages.po', async () => {
  await gates.ru.opened;
  return { messages: { hello: 'Привет' } };
});

const { activateLanguage, addAreaCatalogues, i18n } = await import('./i18n');

const page = { documentElement: { lang: 'en' } };
beforeAll(() => {
  vi.stubGlobal('document', page);
});
afterAll(() => {
  vi.unstubAllGlobals();
});

describe('choosing a language', () => {
  it('the last choice wins when an earlier catalogue arrives after it', async () => {
    const first = activateLanguage('de');
    const second = activateLanguage('ru');
    gates.ru.open();
    await second;
    expect(i18n.locale).toBe('ru');
    gates.de.open();
    await first;
    expect(i18n.locale).toBe('ru');
    expect(i18n._('hello')).toBe('Привет');
    expect(page.documentElement.lang).toBe('ru');
  });
});

describe("an area's own catalogue", () => {
  it('adds its texts to the active language as it loads, and to every language chosen later', async () => {
    await activateLanguage('ru');
    const area = {
      en: () => Promise.resolve({ messages: { valve: 'Valve' } }),
      de: () => Promise.resolve({ messages: { valve: 'Ventil' } }),
      pt: () => Promise.resolve({ messages: { valve: 'Válvula' } }),
      ru: () => Promise.resolve({ messages: { valve: 'Клапан' } }),
    };
    await addAreaCatalogues(area);
    expect(i18n._('valve')).toBe('Клапан');
    // The app's own texts stay.
    expect(i18n._('hello')).toBe('Привет');
    await activateLanguage('de');
    expect(i18n._('valve')).toBe('Ventil');
    expect(i18n._('hello')).toBe('Hallo');
    await activateLanguage('plain');
    expect(i18n._('valve')).toBe('valve');
    expect(i18n._('hello')).toBe('hello');
  });
});
