// Renders the Ink UI into memory (debug mode writes each complete frame) and hands each
// frame to the compositor as cells (SPEC §8: Ink never writes to the terminal).
import { Writable } from 'node:stream';
import { EventEmitter } from 'node:events';
import React from 'react';
import { render, type Instance } from 'ink';
import { Ui, type UiProps } from './ui/Ui.js';

class FrameSink extends Writable {
  columns: number;
  rows: number;
  isTTY = false;
  constructor(cols: number, rows: number, private readonly onFrame: (frame: string) => void) {
    super({ decodeStrings: false });
    this.columns = cols;
    this.rows = rows;
  }
  override _write(chunk: unknown, _enc: BufferEncoding, cb: (err?: Error | null) => void): void {
    this.onFrame(String(chunk));
    cb();
  }
}

/** A stdin Ink accepts but that never delivers keys: the client owns raw input. */
class SilentStdin extends EventEmitter {
  isTTY = true;
  setRawMode(): void {}
  setEncoding(): void {}
  ref(): void {}
  unref(): void {}
  resume(): void {}
  pause(): void {}
  read(): null {
    return null;
  }
}

export class InkLayer {
  private readonly sink: FrameSink;
  private readonly instance: Instance;

  constructor(props: UiProps, rows: number, onFrame: (frame: string) => void) {
    this.sink = new FrameSink(props.cols, rows, onFrame);
    this.instance = render(React.createElement(Ui, props), {
      stdout: this.sink as unknown as NodeJS.WriteStream,
      stdin: new SilentStdin() as unknown as NodeJS.ReadStream,
      debug: true,
      exitOnCtrlC: false,
      patchConsole: false,
    });
  }

  update(props: UiProps, rows: number): void {
    this.sink.columns = props.cols;
    this.sink.rows = rows;
    this.instance.rerender(React.createElement(Ui, props));
  }

  dispose(): void {
    this.instance.unmount();
  }
}
