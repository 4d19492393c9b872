/**
 * Types for the part of node-snap7 1.0.9 (a native addon without types) that the S7 test peer
 * uses: the server, its memory areas and parameters (doc/server.md of the package).
 */
declare module 'node-snap7' {
  interface S7Server {
    /** Blocking without a callback: true on success. */
    StartTo(ip: string): boolean;
    Stop(): boolean;
    SetParam(param: number, value: number): boolean;
    GetParam(param: number): number | false;
    /** DB areas take their number; the others none. The buffer is copied. */
    RegisterArea(area: number, index: number, buffer: Buffer): boolean;
    RegisterArea(area: number, buffer: Buffer): boolean;
    UnregisterArea(area: number, index?: number): boolean;
    /** Replaces the area's content: the buffer must have the registered length. */
    SetArea(area: number, index: number, buffer: Buffer): void;
    SetArea(area: number, buffer: Buffer): void;
    GetArea(area: number, index?: number): Buffer;
    /** Until UnlockArea, a worker thread that reads the area is blocked: the client waits. */
    LockArea(area: number, index?: number): void;
    UnlockArea(area: number, index?: number): void;
    ClientsCount(): number;
    ServerStatus(): number;
    LastError(): number;
    ErrorText(code: number): string;

    readonly LocalPort: number;
    readonly srvAreaPE: number;
    readonly srvAreaPA: number;
    readonly srvAreaMK: number;
    readonly srvAreaDB: number;
  }

  const snap7: { S7Server: new () => S7Server };
  export = snap7;
}
