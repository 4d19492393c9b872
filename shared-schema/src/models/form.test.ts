import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  computeEntry,
  entryProblems,
  FORM_TEXTS,
  formDesignProblems,
  formFieldSchema,
  formFieldsSchema,
  formText,
  readNumberInput,
  type FormFieldInput,
} from './form';
import { evaluateFormula, parseFormula } from '../forms/formula';

const field = (input: Partial<FormFieldInput> & Pick<FormFieldInput, 'id' | 'type'>) =>
  formFieldSchema.parse({ label: { en: input.id }, ...input });

describe('formulas', () => {
  it('reads numbers, fields, operators, parentheses and functions without eval', () => {
    const tree = parseFormula('(end - start) * 60 + round(max(a, -b) / 2)');
    expect(tree).not.toBeNull();
    const values: Record<string, number> = { end: 3, start: 1, a: 5, b: 7 };
    expect(evaluateFormula(tree!, (id) => values[id] ?? null)).toBe(123);
  });

  it('refuses what is not a formula', () => {
    for (const text of ['', '1 +', 'alert(1)', 'a b', '(1', '1)', 'max(1)', 'x; y', '"a"'])
      expect(parseFormula(text), text).toBeNull();
  });

  it('answers null for an empty field or a division by zero', () => {
    expect(evaluateFormula(parseFormula('a / b')!, (id) => (id === 'a' ? 1 : 0))).toBeNull();
    expect(evaluateFormula(parseFormula('a + 1')!, () => null)).toBeNull();
  });

  it('never throws on any text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), (text) => {
        const tree = parseFormula(text);
        if (tree !== null) evaluateFormula(tree, () => 1);
      }),
    );
  });
});

describe('the designer’s checks', () => {
  it('says "Formula not valid" for a bad formula, an unknown field and a circle', () => {
    const fields = [
      field({ id: 'hours', type: 'number' }),
      field({ id: 'good', type: 'formula', formula: 'hours * 2' }),
      field({ id: 'bad', type: 'formula', formula: 'hours *' }),
      field({ id: 'unknown', type: 'formula', formula: 'nope + 1' }),
      field({ id: 'text_ref', type: 'formula', formula: 'note + 1' }),
      field({ id: 'note', type: 'text' }),
      field({ id: 'c1', type: 'formula', formula: 'c2 + 1' }),
      field({ id: 'c2', type: 'formula', formula: 'c1 + 1' }),
    ];
    const problems = formDesignProblems(fields);
    expect(problems.good).toBeUndefined();
    for (const id of ['bad', 'unknown', 'text_ref', 'c1', 'c2'])
      expect(problems[id], id).toEqual([FORM_TEXTS.formula]);
    expect(formFieldsSchema.safeParse(fields).success).toBe(false);
  });

  it('wants options for a selection, ids of their own and ordered limits', () => {
    const problems = formDesignProblems([
      field({ id: 'pick', type: 'select' }),
      field({ id: 'n', type: 'number', min: 5, max: 1 }),
      field({ id: 'n', type: 'text' }),
    ]);
    expect(problems.pick).toEqual([FORM_TEXTS.options]);
    expect(problems.n).toEqual([FORM_TEXTS.limits, FORM_TEXTS.fieldIds]);
  });

  it('wants a label in at least one language', () => {
    const parsed = formFieldSchema.safeParse({ id: 'a', type: 'text', label: { de: ' ' } });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toBe(FORM_TEXTS.label);
    expect(formText({ de: 'Druck', en: 'Pressure' }, 'pt')).toBe('Pressure');
    expect(formText({ de: 'Druck' }, 'ru')).toBe('Druck');
  });
});

describe('an entry’s answers', () => {
  const fields = [
    field({ id: 'name', type: 'text', required: true }),
    field({ id: 'hours', type: 'number', min: 0, unit: 'h' }),
    field({ id: 'minutes', type: 'formula', formula: 'hours * 60' }),
    field({
      id: 'parts',
      type: 'multiselect',
      max_selections: 2,
      options: [
        { id: 'belt', label: { en: 'Belt' } },
        { id: 'filter', label: { en: 'Filter' } },
        { id: 'oil', label: { en: 'Oil' } },
      ],
    }),
    field({ id: 'when', type: 'datetime' }),
    field({ id: 'photo', type: 'photo', required: true, max_files: 2 }),
  ];

  it('gives the spec’s messages', () => {
    const problems = entryProblems(fields, {
      hours: -1,
      parts: ['belt', 'filter', 'oil'],
      when: Number.MAX_SAFE_INTEGER,
      photo: [],
    });
    expect(problems.name).toEqual({ text: FORM_TEXTS.required });
    expect(problems.hours).toEqual({ text: FORM_TEXTS.atLeast, number: 0 });
    expect(problems.parts).toEqual({ text: FORM_TEXTS.multiple });
    expect(problems.when).toEqual({ text: FORM_TEXTS.time });
    expect(problems.photo).toEqual({ text: FORM_TEXTS.required });
    expect(entryProblems(fields, { name: 'ok', hours: 2, parts: ['oil'], photo: ['f1'] })).toEqual(
      {},
    );
  });

  it('computes formulas and keeps only the form’s fields', () => {
    expect(computeEntry(fields, { name: 'x', hours: 1.5, minutes: 999, other: 'y' })).toEqual({
      name: 'x',
      hours: 1.5,
      minutes: 90,
    });
  });

  it('reads typed numbers with the spec’s two messages', () => {
    expect(readNumberInput({ required: true }, 'abc')).toEqual({
      problem: { text: FORM_TEXTS.number },
    });
    expect(readNumberInput({ required: false }, '12a')).toEqual({
      problem: { text: FORM_TEXTS.numberOrEmpty },
    });
    expect(readNumberInput({ required: false }, '')).toEqual({ value: null });
    expect(readNumberInput({ required: true }, '2,5')).toEqual({ value: 2.5 });
  });
});
