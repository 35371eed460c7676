/**
 * The generated parts of docs/: the API tables of docs/api.md, from
 * `deno doc --json` of each entry point in deno.json `exports`, and the
 * error-code table of docs/errors.md, from the JSDoc of `PromptErrorCode`
 * (checked against the codes the type spells). Each is written between
 * `<!-- NAME:start -->` and `<!-- NAME:end -->` markers, formatted by
 * `deno fmt`.
 *
 * `deno task docs:generate` writes them; `scripts/docs_generated_test.ts`
 * (the `docs` stage) fails when they are stale.
 *
 * @module
 */

import { readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { entryPoints, specifier } from "./entry_points.ts";
import { denoManifest, ROOT } from "./node_toolchain.ts";

/** What `deno doc --json` says of one declaration, the fields read here. */
interface DocDeclaration {
  kind: string;
  jsDoc?: { doc?: string };
  def?: {
    params?: DocParam[];
    methods?: { name: string; kind?: string; accessibility?: string }[];
    properties?: { name: string; accessibility?: string }[];
    constructors?: { params: DocParam[] }[];
  };
}

interface DocParam {
  kind: string;
  name?: string;
  optional?: boolean;
  left?: DocParam;
  arg?: DocParam;
}

interface DocSymbol {
  name: string;
  declarations: DocDeclaration[];
}

/** The symbols `deno doc --json` lists for one module, in its order. */
async function docSymbols(source: string): Promise<DocSymbol[]> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["doc", "--json", source],
    cwd: ROOT,
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!output.success) {
    throw new Error(
      `deno doc --json ${source} failed:\n${
        new TextDecoder().decode(output.stderr)
      }`,
    );
  }
  const json = JSON.parse(new TextDecoder().decode(output.stdout));
  const nodes = json.nodes as Record<string, { symbols: DocSymbol[] }>;
  return Object.values(nodes).flatMap((node) => node.symbols);
}

/** A JSDoc paragraph as one table cell: links as code, no `|` breaking it. */
function cell(text: string): string {
  return text
    .replace(/\{@link(?:code|plain)? ([^}|\s]+)(?:[ |][^}]*)?\}/g, "`$1`")
    .replace(/\s+/g, " ")
    .replace(/\|/g, "\\|")
    .trim();
}

/** The first sentence of a JSDoc text (its first paragraph when shorter). */
function summary(doc: string | undefined): string {
  const paragraph = (doc ?? "").split(/\n\s*\n/)[0]!.replace(/\s+/g, " ");
  // A sentence ends at ". " outside backticks.
  let inCode = false;
  for (let i = 0; i < paragraph.length; i++) {
    const char = paragraph[i];
    if (char === "`") inCode = !inCode;
    if (!inCode && char === "." && paragraph[i + 1] === " ") {
      return paragraph.slice(0, i + 1);
    }
  }
  return paragraph;
}

function param(p: DocParam): string {
  switch (p.kind) {
    case "identifier":
      return `${p.name}${p.optional ? "?" : ""}`;
    case "assign":
      return `${param(p.left!).replace(/\?$/, "")}?`;
    case "rest":
      return `...${param(p.arg!)}`;
    default:
      return "{…}";
  }
}

/** How one export reads in the table: `name(a, b?)`, `new Name(o?)`, `Name`. */
function shape(symbol: DocSymbol): string {
  const [declaration] = symbol.declarations;
  const def = declaration?.def;
  if (declaration?.kind === "function") {
    return `${symbol.name}(${(def?.params ?? []).map(param).join(", ")})`;
  }
  if (declaration?.kind === "class" && def?.constructors?.[0]) {
    return `new ${symbol.name}(${
      def.constructors[0].params.map(param).join(", ")
    })`;
  }
  return symbol.name;
}

/** An interface's or class's public members: `` `a`, `b()` ``. */
function members(symbol: DocSymbol): string {
  const def = symbol.declarations[0]?.def;
  const visible = (m: { accessibility?: string }) =>
    m.accessibility !== "private" && m.accessibility !== "protected";
  const names = [
    ...(def?.properties ?? []).filter(visible).map((p) => `\`${p.name}\``),
    ...(def?.methods ?? []).filter(visible).map((m) =>
      m.kind === "getter" || m.kind === "setter"
        ? `\`${m.name}\``
        : `\`${m.name}()\``
    ),
  ];
  return [...new Set(names)].join(", ");
}

const KIND: Record<string, string> = {
  function: "function",
  class: "class",
  interface: "interface",
  typeAlias: "type",
  variable: "const",
  enum: "enum",
  namespace: "namespace",
};

/** The API table of one entry point. */
async function apiTable(name: string, source: string): Promise<string> {
  const symbols = await docSymbols(source);
  const rows = symbols.map((symbol) => {
    const kind = KIND[symbol.declarations[0]?.kind ?? ""] ?? "";
    const has = members(symbol);
    const what = cell(summary(symbol.declarations[0]?.jsDoc?.doc)) +
      (has === "" ? "" : ` Members: ${has}.`);
    return `| \`${shape(symbol).replace(/\|/g, "\\|")}\` | ${kind} | ${what} |`;
  });
  return [
    `### [\`${name}\`](../${source})`,
    "",
    `${symbols.length} exports, in the order of [\`${source}\`](../${source}).`,
    "",
    "| export | kind | what it is |",
    "| --- | --- | --- |",
    ...rows,
  ].join("\n");
}

/** The codes `PromptErrorCode` spells, template literals expanded. */
export function typeCodes(source: string): string[] {
  const start = source.indexOf("export type PromptErrorCode =");
  const body = source.slice(start, source.indexOf(";", start));
  const codes: string[] = [];
  // The union's members: split at each `|` outside `${…}`.
  const members: string[] = [];
  let depth = 0, from = body.indexOf("=") + 1;
  for (let i = from; i <= body.length; i++) {
    if (body.startsWith("${", i)) depth++;
    else if (body[i] === "}") depth--;
    else if (i === body.length || (body[i] === "|" && depth === 0)) {
      members.push(body.slice(from, i).trim());
      from = i + 1;
    }
  }
  for (const member of members.filter((m) => m !== "")) {
    const template = /^`(.*)\$\{([^}]*)\}(.*)`$/.exec(member);
    if (template === null) {
      codes.push(member.slice(1, -1));
      continue;
    }
    const [, before, alternatives, after] = template;
    for (const [, word] of alternatives!.matchAll(/"([^"]+)"/g)) {
      codes.push(`${before}${word}${after}`);
    }
  }
  return codes;
}

/** The error-code table, from the JSDoc of `PromptErrorCode`. */
async function errorTable(): Promise<string> {
  const symbols = await docSymbols("mod.ts");
  const doc = symbols.find((symbol) => symbol.name === "PromptErrorCode")
    ?.declarations[0]?.jsDoc?.doc ?? "";
  const table = doc.split("\n").filter((line) => line.startsWith("|"));
  const listed = table.slice(2).map((line) =>
    /^\|\s*`([a-z-]+)`/.exec(line)?.[1]
  );
  const spelled = typeCodes(
    await readFile(join(ROOT, "src/core/errors.ts"), "utf8"),
  );
  const sorted = (codes: readonly (string | undefined)[]) =>
    JSON.stringify([...codes].sort());
  if (sorted(listed) !== sorted(spelled)) {
    throw new Error(
      `the JSDoc table of PromptErrorCode lists ${sorted(listed)}; ` +
        `the type spells ${sorted(spelled)}`,
    );
  }
  return table.join("\n");
}

/** `text` with the region between NAME's markers replaced by `content`. */
function between(text: string, name: string, content: string): string {
  const start = `<!-- ${name}:start -->`;
  const end = `<!-- ${name}:end -->`;
  const from = text.indexOf(start);
  const to = text.indexOf(end);
  if (from === -1 || to < from) {
    throw new Error(`no ${start} … ${end} markers`);
  }
  return `${text.slice(0, from + start.length)}\n\n${content}\n\n${
    text.slice(to)
  }`;
}

/** Markdown as `deno fmt` writes it. */
async function formatted(markdown: string): Promise<string> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["fmt", "--ext=md", "-"],
    cwd: ROOT,
    stdin: "piped",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const writer = child.stdin.getWriter();
  await writer.write(new TextEncoder().encode(markdown));
  await writer.close();
  const output = await child.output();
  if (!output.success) {
    throw new Error(new TextDecoder().decode(output.stderr));
  }
  return new TextDecoder().decode(output.stdout);
}

/** Each generated page: its path, what it holds now, what it should hold. */
export async function generatedPages(): Promise<
  { path: string; current: string; generated: string }[]
> {
  const { name, exports } = await denoManifest();
  const tables: string[] = [];
  for (const entry of entryPoints(exports)) {
    tables.push(await apiTable(specifier(name, entry), entry.source));
  }
  const pages = [
    { path: "docs/api.md", name: "api", content: tables.join("\n\n") },
    {
      path: "docs/errors.md",
      name: "error-codes",
      content: await errorTable(),
    },
  ];
  return await Promise.all(pages.map(async (page) => {
    const current = await readFile(join(ROOT, page.path), "utf8");
    const generated = await formatted(
      between(current, page.name, page.content),
    );
    return { path: page.path, current, generated };
  }));
}

if (import.meta.main) {
  for (const page of await generatedPages()) {
    if (page.generated === page.current) {
      console.log(`${page.path}: up to date`);
    } else {
      await writeFile(join(ROOT, page.path), page.generated);
      console.log(`${page.path}: written`);
    }
  }
}
