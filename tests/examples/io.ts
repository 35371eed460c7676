// A DemoIo that reads real files and records what the demo prints.
import { readFile } from "node:fs/promises";
import type { DemoIo } from "../../examples/demo_cli.ts";

export interface RecordingIo extends DemoIo {
  stdout: string[];
  stderr: string[];
}

export function recordingIo(): RecordingIo {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    readTextFile: (path) => readFile(path, "utf8"),
    out: (text) => void stdout.push(text),
    err: (text) => void stderr.push(text),
    now: () => "2026-11-30T12:00:00Z",
  };
}

export const fixture = (name: string): string =>
  new URL(`../fixtures/${name}`, import.meta.url).pathname;
export const persona = (name: string): string =>
  new URL(`../../examples/personas/${name}`, import.meta.url).pathname;
