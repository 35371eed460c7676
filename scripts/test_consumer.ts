/**
 * `deno task test:consumer`: builds the npm package, checks it with
 * `npm publish --dry-run`, packs it with `npm pack` into
 * `.tmp/consumer/system-prompt/` (where the docs' `../system-prompt/` finds
 * it) and follows docs/install.md's "Node.js (ESM)" section word for word
 * from an empty directory beside it (`npm init -y`, then every command
 * and file of the section, as a reader types them); in the project that
 * made, the rest of docs/install.md's code blocks,
 * written out as files, are type-checked with the oldest supported and the
 * newest TypeScript under its Node.js and browser `tsconfig.json`s, and run
 * on Node.js (ESM and CommonJS), on Bun and as an esbuild browser bundle;
 * its AI SDK example is type-checked with `ai` 6 installed (under its
 * tsconfig, and with `exactOptionalPropertyTypes` and `skipLibCheck`) and
 * run with the SDK's mock model; its `declare module` examples (the context,
 * host fields on tools) are type-checked and run. Every entry point of
 * deno.json `exports` is imported and required by name, and package.json
 * `engines` says the Node.js version the docs say.
 * Prints "consumer: N passed, M failed" and leaves nothing behind on success.
 *
 * @module
 */

import {
  mkdir,
  readdir,
  readFile,
  rm,
  symlink,
  writeFile,
} from "node:fs/promises";
import { join } from "node:path";
import { buildNpm } from "./build_npm.ts";
import { NODE_ENGINES } from "./npm_manifest.ts";
import { docBlock, docBlocks } from "./doc_blocks.ts";
import { docSteps } from "./doc_commands.ts";
import { specifier } from "./entry_points.ts";
import {
  type CommandError,
  denoManifest,
  removeScratch,
  ROOT,
  run,
  VERSIONS,
} from "./node_toolchain.ts";

const EXPECTED = "You are m-1.";
const { name, version } = await denoManifest();
const installMd = await readFile(join(ROOT, "docs/install.md"), "utf8");
const blocks = docBlocks(installMd);
const results: { name: string; error?: unknown }[] = [];

/** Runs one check, records it, and goes on to the next either way. */
async function check(title: string, body: () => Promise<void>) {
  const started = performance.now();
  const took = () => `${((performance.now() - started) / 1000).toFixed(1)} s`;
  try {
    await body();
    results.push({ name: title });
    console.log(`ok   ${title} (${took()})`);
  } catch (error) {
    results.push({ name: title, error });
    console.log(`FAIL ${title} (${took()})\n     ${(error as Error).message}`);
  }
}

/** Runs a command that must print exactly the expected prompt line. */
async function expectPrompt(command: string, args: string[], cwd: string) {
  const output = (await run(command, args, { cwd })).trim();
  if (output !== EXPECTED) {
    throw new Error(
      `${command} ${args.join(" ")} printed ${JSON.stringify(output)}`,
    );
  }
}

const packageDir = join(ROOT, ".tmp", "consumer-package");
const { entries } = await buildNpm(packageDir);

await check("npm publish --dry-run accepts the package", async () => {
  // npm prints its file list on stderr and fails on a manifest it rejects.
  await run("npm", ["publish", "--dry-run", "--loglevel=error"], {
    cwd: packageDir,
  });
});

await check("the .d.ts files use .js specifiers only", async () => {
  const files = (await readdir(packageDir, { recursive: true }))
    .filter((file) => file.endsWith(".d.ts"));
  for (const file of files) {
    const text = await readFile(join(packageDir, file), "utf8");
    const bad = /(["'])\.\.?\/[^"'\n]*\.ts\1/.exec(text);
    if (bad) throw new Error(`${file} imports ${bad[0]}`);
  }
  if (!files.some((file) => file.endsWith(".d.ts"))) {
    throw new Error("no .d.ts files");
  }
});

await check(
  "package.json engines say the Node.js docs/install.md says",
  async () => {
    const { engines } = JSON.parse(
      await readFile(join(packageDir, "package.json"), "utf8"),
    );
    const row = /^\| Node\.js, ESM +\| (\d+) +\|/m.exec(installMd);
    if (row === null) {
      throw new Error(
        "docs/install.md has no Node.js, ESM row",
      );
    }
    if (engines.node !== NODE_ENGINES || NODE_ENGINES !== `>=${row[1]}`) {
      throw new Error(
        `engines.node is ${engines.node}; docs/install.md says Node.js ${
          row[1]
        }`,
      );
    }
  },
);

await check("each .js and .d.ts has its map", async () => {
  const files = await readdir(packageDir, { recursive: true });
  const emitted = files.filter((f) =>
    !f.startsWith("source") && (f.endsWith(".js") || f.endsWith(".d.ts"))
  );
  const missing = emitted.filter((f) => !files.includes(`${f}.map`));
  if (missing.length > 0) throw new Error(`no map for ${missing.join(", ")}`);
});

// The reader's layout: the clone's tarball in ../system-prompt/, the
// project made next to it by install.md's own commands.
const root = join(ROOT, ".tmp", "consumer");
await rm(root, { recursive: true, force: true });
await mkdir(join(root, "system-prompt"), { recursive: true });
await run("npm", [
  "pack",
  "--pack-destination",
  join(root, "system-prompt"),
  "--silent",
], { cwd: packageDir });

/**
 * Follows the `##` section `title` of docs/install.md as a reader does,
 * from `cwd`: its files written where the reader stands, its commands run
 * by bash word for word (`cd` carries over), a transcript's output
 * compared. Returns where the reader stands at its end.
 */
async function follow(title: string, cwd: string): Promise<string> {
  const steps = docSteps(installMd);
  const start = steps.findIndex((step) =>
    step.kind === "section" && step.title === title
  );
  if (start === -1) throw new Error(`docs/install.md has no section ${title}`);
  const next = steps.findIndex((step, i) =>
    i > start && step.kind === "section"
  );
  const state = join(root, ".cwd");
  for (const step of steps.slice(start + 1, next === -1 ? undefined : next)) {
    if (step.kind === "file") {
      await writeFile(join(cwd, step.name), step.text);
    } else if (step.kind === "command" && !step.release) {
      const output = await run("bash", [
        "-c",
        `set -euo pipefail\nexec 2>&1\n${step.command}\npwd > '${state}'`,
      ], { cwd });
      cwd = (await readFile(state, "utf8")).trim();
      if (step.output !== undefined && output.trim() !== step.output) {
        throw new Error(
          `docs/install.md:${step.line} ${step.command} printed ${
            JSON.stringify(output.trim())
          }; the page says ${JSON.stringify(step.output)}`,
        );
      }
    }
  }
  return cwd;
}

let dir = join(root, "node-agent");
await check(
  "docs/install.md's Node.js (ESM) section, word for word from an empty directory: npm init -y, npm pkg set type=module, the tarball, tsc, node",
  async () => {
    dir = await follow("Node.js (ESM)", root);
    const { type } = JSON.parse(
      await readFile(join(dir, "package.json"), "utf8"),
    );
    if (type !== "module") throw new Error(`package.json says type ${type}`);
  },
);
await check(
  "without npm pkg set type=module, tsc stops at agent.ts's await with TS1309, as docs/install.md says",
  async () => {
    const cjs = join(root, "cjs-agent");
    await mkdir(cjs, { recursive: true });
    await run("npm", ["init", "-y"], { cwd: cjs });
    await symlink(join(dir, "node_modules"), join(cjs, "node_modules"));
    for (const name of ["tsconfig.json", "agent.ts"]) {
      await writeFile(join(cjs, name), await readFile(join(dir, name)));
    }
    // An expected failure: tsc's output is checked, not printed.
    const output = await run("npx", ["tsc"], { cwd: cjs, quiet: true })
      .then(() => "", (error) => (error as CommandError).output);
    if (!output.includes("error TS1309")) {
      throw new Error(`tsc printed ${JSON.stringify(output)}`);
    }
  },
);
// The other checks' tools, added to the project the reader made.
await run("npm", [
  "install",
  "--no-audit",
  "--no-fund",
  "--no-save",
  "--loglevel=error",
  `typescript@${VERSIONS.typescript}`,
  `typescript-oldest@npm:typescript@${VERSIONS.typescriptOldest}`,
  `@types/node@${VERSIONS.typesNode}`,
  `esbuild@${VERSIONS.esbuild}`,
  `bun@${VERSIONS.bun}`,
  `ai@${VERSIONS.ai}`,
  `@types/json-schema@${VERSIONS.typesJsonSchema}`,
], { cwd: dir });
const file = (path: string, text: string) => writeFile(join(dir, path), text);
const TSC = {
  [VERSIONS.typescript]: join(dir, "node_modules/typescript/bin/tsc"),
  [VERSIONS.typescriptOldest]: join(
    dir,
    "node_modules/typescript-oldest/bin/tsc",
  ),
};

// The rest of docs/install.md, as a reader copies it.
const nodeMain = docBlock(blocks, "// agent.ts");
await file("app.ts", docBlock(blocks, "// main.ts"));
await file("main.cjs", docBlock(blocks, "// main.cjs"));
await file("browser.js", docBlock(blocks, "// browser.js"));
await file("tsconfig.node.json", docBlock(blocks, "// tsconfig.json"));
await file(
  "tsconfig.browser.json",
  docBlock(blocks, "// tsconfig.json for a browser app"),
);
await file(
  "tsconfig.ai.json",
  docBlock(blocks, "// tsconfig.json for Node.js with the AI SDK"),
);
await file(
  "tsconfig.ai-exact.json",
  JSON.stringify({
    extends: "./tsconfig.ai.json",
    compilerOptions: { exactOptionalPropertyTypes: true, skipLibCheck: true },
  }),
);
await file(
  "tsconfig.ai-exact-checked.json",
  JSON.stringify({
    extends: "./tsconfig.ai.json",
    compilerOptions: { exactOptionalPropertyTypes: true },
  }),
);
await file("ai_sdk.ts", docBlock(blocks, "// ai_sdk.ts for Node.js"));
await file("context.d.ts", docBlock(blocks, "// context.d.ts"));
await file(
  "uses_context.ts",
  'import { SystemPrompt } from "@dsh/system-prompt";\n' +
    "const prompt = new SystemPrompt();\n" +
    'prompt.variable("model", (context) => context.agent?.model);\n' +
    "export { prompt };\n",
);
await file("tool_fields.ts", docBlock(blocks, "// tool_fields.ts"));
// Every entry point by name, typed and untyped.
const specifiers = entries.map((entry) => specifier(name, entry));
await file(
  "entries.ts",
  specifiers.map((s, i) => `import * as entry${i} from "${s}";\n`).join("") +
    `export const entries = [${specifiers.map((_, i) => `entry${i}`)}];\n`,
);

/** A tsconfig extending a docs one, for `files`, and emitting to `out/`. */
async function project(base: string, files: string[], emit: boolean) {
  const path = `tsconfig.${base}.${files.join("-")}.json`;
  await file(
    path,
    JSON.stringify({
      extends: `./tsconfig.${base}.json`,
      compilerOptions: emit
        ? { outDir: "out", noEmit: false }
        : { noEmit: true },
      files,
    }),
  );
  return path;
}

for (const ts of [VERSIONS.typescriptOldest, VERSIONS.typescript]) {
  await check(
    `TypeScript ${ts}, Node.js tsconfig: agent.ts, context.d.ts and every entry point type-check`,
    async () => {
      await run("node", [
        TSC[ts]!,
        "-p",
        await project("node", [
          "agent.ts",
          "entries.ts",
          "context.d.ts",
          "uses_context.ts",
        ], false),
      ], { cwd: dir });
    },
  );
  await check(
    `TypeScript ${ts}, browser tsconfig: app.ts and every entry point type-check`,
    async () => {
      await run("node", [
        TSC[ts]!,
        "-p",
        await project("browser", ["app.ts", "entries.ts"], false),
      ], { cwd: dir });
    },
  );
  await check(
    `TypeScript ${ts} rejects a typo the declarations must catch`,
    async () => {
      await file(
        "typo.ts",
        nodeMain.replace("context.agent?.model", "context.agent?.modle"),
      );
      // An expected failure: tsc's output is checked, not printed.
      const output = await run("node", [
        TSC[ts]!,
        "-p",
        await project("node", ["typo.ts"], false),
      ], { cwd: dir, quiet: true })
        .then(() => undefined, (error) => (error as CommandError).output);
      if (output === undefined) {
        throw new Error("a consumer with a type error compiled");
      }
      if (!/error TS2551: Property 'modle' does not exist/.test(output)) {
        throw new Error(`tsc rejected typo.ts for another reason:\n${output}`);
      }
    },
  );
}

await check(
  `TypeScript ${VERSIONS.typescript}, ai ${VERSIONS.ai}: with exactOptionalPropertyTypes, ai's declarations fail unless skipLibCheck`,
  async () => {
    await run("node", [
      TSC[VERSIONS.typescript]!,
      "-p",
      await project("ai-exact", ["ai_sdk.ts"], false),
    ], { cwd: dir });
    const output = await run("node", [
      TSC[VERSIONS.typescript]!,
      "-p",
      await project("ai-exact-checked", ["ai_sdk.ts"], false),
    ], { cwd: dir, quiet: true })
      .then(() => "", (error) => (error as CommandError).output);
    const errors = output.split("\n").filter((line) => /error TS/.test(line));
    if (
      errors.length === 0 ||
      errors.some((line) => !line.startsWith("node_modules/ai/dist/index.d.ts"))
    ) {
      throw new Error(`expected errors in ai's declarations only:\n${output}`);
    }
  },
);
const nodeVersion = (await run("node", ["--version"], { cwd: dir })).trim();
await check(
  `Node.js ${nodeVersion}: agent.ts and tool_fields.ts (host fields on tools) compiled by TypeScript ${VERSIONS.typescript} run`,
  async () => {
    await run("node", [
      TSC[VERSIONS.typescript]!,
      "-p",
      await project("node", ["agent.ts", "tool_fields.ts"], true),
    ], { cwd: dir });
    await expectPrompt("node", ["out/agent.js"], dir);
    await run("node", ["out/tool_fields.js"], { cwd: dir });
  },
);
await check(`Node.js ${nodeVersion}: main.mjs (ESM) runs`, async () => {
  await expectPrompt("node", ["main.mjs"], dir);
});
await check(
  `Node.js ${nodeVersion}: main.cjs (CommonJS require) runs`,
  async () => {
    await expectPrompt("node", ["main.cjs"], dir);
  },
);
await check(
  `Node.js ${nodeVersion}: every entry point imports and requires by name`,
  async () => {
    const script = `
    const { createRequire } = await import("node:module");
    const require = createRequire(import.meta.url);
    for (const s of ${JSON.stringify(specifiers)}) {
      const imported = await import(s);
      const required = require(s);
      if (Object.keys(imported).length === 0 || imported.SystemPrompt !== undefined && required.SystemPrompt !== imported.SystemPrompt) {
        throw new Error(s + " exports nothing or two copies");
      }
    }`;
    await run("node", ["--input-type=module", "-e", script], { cwd: dir });
  },
);
await check(
  `TypeScript ${VERSIONS.typescript}, ai ${VERSIONS.ai}: ai_sdk.ts type-checks under the AI SDK tsconfig, and its step() runs on Node.js ${nodeVersion} with the SDK's mock model`,
  async () => {
    await run("node", [
      TSC[VERSIONS.typescript]!,
      "-p",
      await project("ai", ["ai_sdk.ts"], true),
    ], { cwd: dir });
    const script = `
    import { MockLanguageModelV3 } from "ai/test";
    import { SystemPrompt } from "@dsh/system-prompt";
    import { step } from "./out/ai_sdk.js";
    const prompt = new SystemPrompt();
    prompt.section({ name: "persona", order: 0, text: "You are m-1." });
    prompt.tools(() => [{ name: "bash", description: "Runs a command.", parameters: { type: "object" } }]);
    const model = new MockLanguageModelV3({ doGenerate: {
      content: [{ type: "text", text: "On it." }],
      finishReason: { unified: "stop", raw: undefined },
      usage: { inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
        outputTokens: { total: 1, text: 1, reasoning: undefined } },
      warnings: [] } });
    const text = await step(model, await prompt.assemble(), "List the files.");
    const [call] = model.doGenerateCalls;
    if (text !== "On it." || call.prompt[0].content !== "You are m-1." || call.tools[0].name !== "bash") {
      throw new Error("the model got " + JSON.stringify(call.prompt[0]) + " and " + JSON.stringify(call.tools));
    }`;
    await run("node", ["--input-type=module", "-e", script], { cwd: dir });
  },
);
const bun = join(dir, "node_modules/.bin/bun");
await check(`Bun ${VERSIONS.bun}: main.mjs and agent.ts run`, async () => {
  await expectPrompt(bun, ["main.mjs"], dir);
  await expectPrompt(bun, ["agent.ts"], dir);
});
await check(
  `esbuild ${VERSIONS.esbuild}: browser.js bundles to one module without imports, which runs`,
  async () => {
    await run(join(dir, "node_modules/.bin/esbuild"), [
      "browser.js",
      "--bundle",
      "--format=esm",
      "--outfile=dist/app.js",
      "--log-level=warning",
      "--metafile=dist/meta.json",
    ], { cwd: dir });
    const meta = JSON.parse(
      await readFile(join(dir, "dist/meta.json"), "utf8"),
    );
    const imports = meta.outputs["dist/app.js"].imports;
    if (imports.length > 0) {
      throw new Error(`the bundle imports ${JSON.stringify(imports)}`);
    }
    await expectPrompt("node", ["dist/app.js"], dir);
  },
);

const failed = results.filter((result) => result.error !== undefined);
console.log(
  `consumer: ${results.length - failed.length} passed, ${failed.length} failed`,
);
if (failed.length > 0) {
  console.log(`kept ${root} and ${packageDir} for a look`);
  Deno.exit(1);
}
await removeScratch("consumer-package");
await removeScratch("consumer");
console.log(`${name}@${version}: ${entries.length} entry point(s) checked`);
