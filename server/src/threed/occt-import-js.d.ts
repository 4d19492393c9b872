/** occt-import-js ships no types: the part of its API the STEP reader uses (load-model.ts). */
declare module 'occt-import-js' {
  interface OcctParams {
    readonly linearUnit?: 'millimeter' | 'centimeter' | 'meter' | 'inch' | 'foot';
    readonly linearDeflectionType?: 'bounding_box_ratio' | 'absolute_value';
    readonly linearDeflection?: number;
    readonly angularDeflection?: number;
  }
  interface OcctModule {
    ReadStepFile(content: Uint8Array, params: OcctParams | null): unknown;
  }
  export default function occtImport(): Promise<OcctModule>;
}
