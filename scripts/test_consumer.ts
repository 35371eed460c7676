/**
 * `deno task test:consumer`: packs `npm/` with `npm pack`, installs the
 * tarball into a fresh Node project with TypeScript, type-checks a consumer
 * that augments `AssembleContext` with `declare module`, runs it with node,
 * and checks that a consumer with a type error fails to compile.
 *
 * @module
 */

import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { buildNpm } from "./build_npm.ts";
import {
  compile,
  ROOT,
  run,
  scratchProject,
  VERSIONS,
} from "./node_toolchain.ts";

const CONSUMER = `
import { PromptError, renderPrompt, SystemPrompt } from "@dsh/system-prompt";

interface Agent {
  model: string;
  cwd?: string;
}

declare module "@dsh/system-prompt" {
  interface AssembleContext {
    agent?: Agent;
  }
}

const prompt = new SystemPrompt();
const loop = prompt.scope("agent-loop");
loop.section({ name: "agent:persona", order: 0, text: "You are {{model}} in {{cwd}}." });
loop.variable("model", (context) => context.agent?.model);
loop.variable("cwd", (context) => context.agent?.cwd);
prompt.on("system-prompt/assemble", (assembly, context) => {
  if (context.agent === undefined) assembly.sections = [];
});

const text = renderPrompt(await prompt.assemble({ agent: { model: "m-1", cwd: "/repo" } }));
if (text !== "You are m-1 in /repo.") throw new Error("unexpected prompt: " + text);
try {
  renderPrompt(await prompt.assemble({ agent: { model: "m-1" } }));
  throw new Error("expected a missing-value error");
} catch (error) {
  if (!(error instanceof PromptError) || error.code !== "missing-value") throw error;
}
console.log("consumer ok: " + text);
`;

// The same consumer with one typo the augmentation must catch.
const BROKEN = CONSUMER.replace("context.agent?.model", "context.agent?.modle");

const npmDir = await buildNpm();
const packed = await run("npm", [
  "pack",
  "--pack-destination",
  join(ROOT, ".tmp"),
  "--silent",
], { cwd: npmDir });
const tarball = join(ROOT, ".tmp", packed.trim().split("\n").at(-1)!);

const dir = await scratchProject(
  "consumer",
  { name: "consumer", private: true, type: "module" },
  [],
  [
    tarball,
    `typescript@${VERSIONS.typescript}`,
    `@types/node@${VERSIONS.typesNode}`,
  ],
);
await writeFile(join(dir, "consumer.ts"), CONSUMER);
await compile(dir, { include: ["consumer.ts"], outDir: "out" });
const output = await run("node", ["out/consumer.js"], { cwd: dir });
if (!output.includes("consumer ok: You are m-1 in /repo.")) {
  throw new Error(`consumer printed ${output}`);
}
console.log(output.trim());

await writeFile(join(dir, "consumer.ts"), BROKEN);
console.log("compiling the consumer with a typo; tsc must reject it:");
const failed = await compile(dir, { include: ["consumer.ts"], outDir: "out" })
  .then(() => false, () => true);
if (!failed) throw new Error("a consumer with a type error compiled");
console.log("consumer with a type error: rejected by tsc, as it must be");
console.log("consumer: 2 passed, 0 failed");
