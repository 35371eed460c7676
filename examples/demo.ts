/**
 * `deno task demo`: prints the system prompt the example agent loop builds.
 *
 * @module
 */

import { readFile, writeFile } from "node:fs/promises";
import process from "node:process";
import { runDemo } from "./demo_cli.ts";

process.exitCode = await runDemo(process.argv.slice(2), {
  readTextFile: (path) => readFile(path, "utf8"),
  writeTextFile: (path, text) => writeFile(path, text),
  out: (text) => console.log(text),
  err: (text) => console.error(text),
  now: () => new Date().toISOString(),
});
