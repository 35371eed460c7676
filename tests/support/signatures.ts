/**
 * The signatures a TypeScript module shares with other files, read from
 * its source text: exported functions, exported arrow-function constants,
 * and the public constructors, methods and accessors of exported classes.
 * For each, its parameters (top-level commas of the list, a destructured
 * one counting once) and whether a return type is written. A reader of
 * text, not a compiler: it knows the forms `src/` uses, and the structure
 * test fails if a file holds an `export` it does not recognise.
 *
 * @module
 */

/** One shared function: where it is and what its signature states. */
export interface Signature {
  /** `name`, or `Class.method` for a class member. */
  name: string;
  /** 1-based line of the declaration. */
  line: number;
  /** Each parameter's source text, trimmed. */
  parameters: string[];
  /** Whether `): Type` follows the parameter list (not asked of constructors). */
  returnType: boolean;
  /** A constructor (no return type) or a setter. */
  kind: "function" | "method" | "constructor";
}

const OPEN: Record<string, string> = { "(": ")", "{": "}", "[": "]" };

/**
 * The text with comments, strings and template literals blanked (their
 * characters replaced by spaces, newlines kept), so brackets inside them
 * do not count and line numbers stay.
 */
export function blank(source: string): string {
  let out = "";
  let i = 0;
  const keep = (from: number, to: number) => {
    out += source.slice(from, to).replace(/[^\n]/g, " ");
  };
  while (i < source.length) {
    const c = source[i]!;
    const next = source[i + 1];
    if (c === "/" && next === "/") {
      const end = source.indexOf("\n", i);
      const to = end === -1 ? source.length : end;
      keep(i, to);
      i = to;
    } else if (c === "/" && next === "*") {
      const to = source.indexOf("*/", i + 2) + 2;
      keep(i, to);
      i = to;
    } else if (c === '"' || c === "'" || c === "`") {
      let j = i + 1;
      let depth = 0; // `${` nesting inside a template
      while (j < source.length) {
        const d = source[j]!;
        if (d === "\\") j += 2;
        else if (c === "`" && d === "$" && source[j + 1] === "{") {
          depth++;
          j += 2;
        } else if (depth > 0 && d === "}") {
          depth--;
          j++;
        } else if (depth === 0 && d === c) break;
        else j++;
      }
      out += c;
      keep(i + 1, j);
      out += c;
      i = j + 1;
    } else if (c === "/" && /[=(,:!&|?{};\n]\s*$/.test(out.slice(-20))) {
      // A regular expression literal.
      let j = i + 1;
      let inClass = false;
      while (j < source.length) {
        const d = source[j]!;
        if (d === "\\") j += 2;
        else if (d === "[") (inClass = true), j++;
        else if (d === "]") (inClass = false), j++;
        else if (d === "/" && !inClass) break;
        else j++;
      }
      out += "/";
      keep(i + 1, j);
      out += "/";
      i = j + 1;
    } else {
      out += c;
      i++;
    }
  }
  return out;
}

/** The index just past the bracket that closes the one at `at`. */
function closing(text: string, at: number): number {
  const stack: string[] = [];
  for (let i = at; i < text.length; i++) {
    const c = text[i]!;
    if (c in OPEN) stack.push(OPEN[c]!);
    else if (c === ")" || c === "}" || c === "]") {
      stack.pop();
      if (stack.length === 0) return i + 1;
    }
  }
  throw new Error(`unbalanced bracket at ${at}`);
}

/** The index past a `<…>` type parameter list starting at `at`. */
function pastGenerics(text: string, at: number): number {
  if (text[at] !== "<") return at;
  let depth = 0;
  for (let i = at; i < text.length; i++) {
    const c = text[i];
    if (c === "<") depth++;
    else if (c === ">" && text[i - 1] !== "=") {
      depth--;
      if (depth === 0) return i + 1;
    } else if (c === "(" || c === "{" || c === "[") i = closing(text, i) - 1;
  }
  throw new Error(`unbalanced type parameters at ${at}`);
}

/** The parameters of the list whose `(` is at `at`, and the index past it. */
function parameters(text: string, at: number): [string[], number] {
  const end = closing(text, at);
  const inner = text.slice(at + 1, end - 1);
  const list: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < inner.length; i++) {
    const c = inner[i]!;
    if (c in OPEN || c === "<") depth++;
    else if (c === ")" || c === "}" || c === "]") depth--;
    else if (c === ">" && inner[i - 1] !== "=") depth--;
    else if (c === "," && depth === 0) {
      list.push(inner.slice(start, i));
      start = i + 1;
    }
  }
  list.push(inner.slice(start));
  const trimmed = list.map((p) => p.trim().replace(/\s+/g, " "));
  return [trimmed.filter((p) => p !== ""), end];
}

const lineOf = (text: string, at: number) =>
  text.slice(0, at).split("\n").length;

const FUNCTION =
  /^export\s+(?:declare\s+)?(?:async\s+)?function\*?\s*([\w$]+)/gm;
const ARROW =
  /^export\s+const\s+([\w$]+)\s*(?::[^=]+)?=\s*(?:async\s*)?(?=[(<])/gm;
const CLASS = /^export\s+(?:abstract\s+)?class\s+([\w$]+)[^{]*\{/gm;
const MEMBER =
  /^\s*((?:(?:public|protected|private|static|readonly|override|async|abstract|get|set)\s+)*)(constructor|[\w$]+|\[[^\]]+\])\s*(?=[(<])/;

/** The shared signatures of a module's source text. */
export function signatures(source: string): Signature[] {
  const text = blank(source);
  const found: Signature[] = [];
  const add = (name: string, kind: Signature["kind"], open: number) => {
    const from = pastGenerics(text, open);
    const [list, end] = parameters(text, from);
    const returnType = /^\s*:/.test(text.slice(end));
    found.push({
      name,
      line: lineOf(text, open),
      parameters: list,
      returnType,
      kind,
    });
  };
  for (const match of text.matchAll(FUNCTION)) {
    const at = match.index + match[0].length;
    add(match[1]!, "function", text.slice(at).search(/\S/) + at);
  }
  for (const match of text.matchAll(ARROW)) {
    add(match[1]!, "function", match.index + match[0].length);
  }
  for (const match of text.matchAll(CLASS)) {
    const open = match.index + match[0].length - 1;
    const end = closing(text, open);
    // The members at the class body's own depth, line by line.
    let i = open + 1;
    while (i < end - 1) {
      const lineEnd = text.indexOf("\n", i);
      const line = text.slice(i, lineEnd);
      const member = MEMBER.exec(line);
      if (member !== null && !/\bprivate\b/.test(member[1]!)) {
        const name = member[2]!;
        const at = i + member.index + member[0].length;
        if (!name.startsWith("#")) {
          const kind = name === "constructor" ? "constructor" : "method";
          add(`${match[1]}.${name}`, kind, at);
        }
      }
      // Past the member's brackets (its body): the next line at depth one.
      let j = i;
      while (j < end - 1 && text[j] !== "\n") {
        j = text[j]! in OPEN ? closing(text, j) : j + 1;
      }
      const next = j + 1;
      i = next;
    }
  }
  return found.sort((a, b) => a.line - b.line);
}
