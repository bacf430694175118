// Types for the W3C's WebVTT parser and validator (webvtt-parser, https://github.com/w3c/webvtt.js),
// which ships none: only what the tests read.

declare module 'webvtt-parser' {
  export interface WebVTTNode {
    type: 'text' | 'object' | 'timestamp';
    value?: string;
    name?: string;
    children?: WebVTTNode[];
  }
  export interface WebVTTCue {
    id: string;
    startTime: number;
    endTime: number;
    text: string;
    tree: { children: WebVTTNode[] };
  }
  export interface WebVTTError {
    message: string;
    line: number;
    col?: number;
  }
  export class WebVTTParser {
    /** Named character references; the default knows only &amp &lt &gt &lrm &rlm &nbsp without `;`. */
    constructor(entities?: Record<string, string>);
    parse(input: string, mode?: 'metadata' | 'chapters'): { cues: WebVTTCue[]; errors: WebVTTError[] };
  }
}
