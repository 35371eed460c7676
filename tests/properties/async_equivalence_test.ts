// docs/design.md ("Async providers and cancellation"): a registry whose
// providers are each randomly synchronous or asynchronous (a Promise or a bare
// thenable) renders exactly what the same registry renders when every provider
// is synchronous: the prompt, the context message, the tools with their
// owners, the variables, and prompt.render()'s step. A provider that fails
// throws in the all-sync registry and throws or rejects in the mixed one: the
// step rejects with the same code and fields (the messages differ by
// "threw"/"rejected").
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  type PromptAssembly,
  PromptError,
  type PromptRegistrar,
  renderContext,
  renderPrompt,
  SystemPrompt,
} from "../../mod.ts";
import { toolOwner } from "../../inspect.ts";

const RUNS = { numRuns: 1_000, seed: 20261212 };

/** How a provider answers in the mixed registry. */
type Mode = "sync" | "promise" | "thenable";
/** What it answers: its value, a throw (or rejection), or a wrong type. */
type Outcome = "ok" | "fail" | "wrong";

interface Call<T> {
  readonly value: T;
  readonly mode: Mode;
  readonly outcome: Outcome;
}

interface ListSpec {
  readonly footer: Call<string> | undefined;
  readonly empty: Call<string> | undefined;
  readonly items: readonly {
    name: string;
    order: number;
    orderFn: boolean;
    text: Call<string> | string;
    owner: number;
  }[];
  readonly providers: readonly {
    items: Call<{ name: string; order: number; text: string }[]>;
    owner: number;
  }[];
}

interface PartSpec {
  readonly name: string;
  readonly order: number;
  readonly text: Call<string> | string;
  readonly owner: number;
  readonly list: ListSpec | undefined;
}

interface Spec {
  readonly sections: readonly PartSpec[];
  readonly contexts: readonly PartSpec[];
  readonly variables: readonly {
    name: string;
    value: Call<string | undefined>;
    owner: number;
  }[];
  readonly tools: readonly { tools: Call<string[]>; owner: number }[];
  readonly handlers: readonly { mode: Mode; edit: "none" | "drop-tool" }[];
}

// owner -1 is the root registry.
const OWNERS = ["p0", "p1"];
const owner = fc.integer({ min: -1, max: OWNERS.length - 1 });
const mode = fc.constantFrom<Mode>("sync", "promise", "thenable");

function call<T>(
  value: fc.Arbitrary<T>,
  outcome: fc.Arbitrary<Outcome>,
): fc.Arbitrary<Call<T>> {
  return fc.record({ value, mode, outcome });
}

const TEXTS = ["A", "B {{v0}}", "C {{v1}}", "", "  D  ", "{{v2}}", "E\nF"];

function spec(outcome: fc.Arbitrary<Outcome>): fc.Arbitrary<Spec> {
  const text = fc.oneof(
    fc.constantFrom(...TEXTS),
    call(fc.constantFrom(...TEXTS), outcome),
  );
  const list: fc.Arbitrary<ListSpec | undefined> = fc.option(
    fc.record({
      footer: fc.option(call(fc.constantFrom("end", "(end)"), outcome), {
        nil: undefined,
      }),
      empty: fc.option(call(fc.constantFrom("none", "No items."), outcome), {
        nil: undefined,
      }),
      items: fc.uniqueArray(
        fc.record({
          name: fc.constantFrom("i1", "i2", "i3"),
          order: fc.integer({ min: 0, max: 2 }),
          orderFn: fc.boolean(),
          text,
          owner,
        }),
        { selector: (item) => item.name, maxLength: 3 },
      ),
      providers: fc.array(
        fc.record({
          items: call(
            fc.uniqueArray(
              fc.record({
                name: fc.constantFrom("i3", "i4", "i5"),
                order: fc.integer({ min: 0, max: 2 }),
                text: fc.constantFrom("- x", "- {{v0}}"),
              }),
              { selector: (item) => item.name, maxLength: 2 },
            ),
            outcome,
          ),
          owner,
        }),
        { maxLength: 2 },
      ),
    }),
    { nil: undefined },
  );
  const parts = (names: string[]) =>
    fc.uniqueArray(
      fc.record({
        name: fc.constantFrom(...names),
        order: fc.integer({ min: -1, max: 2 }),
        text,
        owner,
        list,
      }),
      { selector: (part) => part.name, maxLength: 3 },
    );
  return fc.record({
    sections: parts(["s1", "s2", "s3", "s4"]),
    contexts: parts(["c1", "c2"]),
    variables: fc.uniqueArray(
      fc.record({
        name: fc.constantFrom("v0", "v1", "v2"),
        value: call(
          fc.constantFrom<string | undefined>("x", "y", undefined),
          outcome,
        ),
        owner,
      }),
      { selector: (variable) => variable.name, maxLength: 3 },
    ),
    tools: fc.array(
      fc.record({
        tools: call(
          fc.uniqueArray(fc.constantFrom("bash", "read", "grep"), {
            maxLength: 2,
          }),
          outcome,
        ),
        owner,
      }),
      { maxLength: 3 },
    ),
    handlers: fc.array(
      fc.record({ mode, edit: fc.constantFrom("none", "drop-tool") } as const),
      { maxLength: 2 },
    ),
  });
}

const WRONG = 42;

/** The provider `c` becomes: all synchronous, or in its own mode. */
function provider<T>(c: Call<T>, mixed: boolean, label: string) {
  return (): never => {
    const how = mixed ? c.mode : "sync";
    if (c.outcome === "fail") {
      const error = new Error(`${label} failed`);
      if (how === "sync") throw error;
      return (how === "promise" ? Promise.reject(error) : {
        then: (_: unknown, no: (e: unknown) => void) => no(error),
      }) as never;
    }
    const value = c.outcome === "wrong" ? WRONG : c.value;
    if (how === "sync") return value as never;
    return (how === "promise"
      ? Promise.resolve(value)
      : { then: (yes: (v: unknown) => void) => yes(value) }) as never;
  };
}

function text(t: Call<string> | string, mixed: boolean, label: string) {
  return typeof t === "string" ? t : provider(t, mixed, label);
}

function build(s: Spec, mixed: boolean): SystemPrompt {
  const prompt = new SystemPrompt();
  const scopes: PromptRegistrar[] = OWNERS.map((name) => prompt.scope(name));
  const at = (i: number): PromptRegistrar => i < 0 ? prompt : scopes[i]!;
  const part = (kind: "section" | "context", p: PartSpec) => {
    const l = p.list;
    at(p.owner)[kind]({
      name: p.name,
      order: p.order,
      text: text(p.text, mixed, p.name),
      ...(l === undefined ? {} : {
        list: {
          ...(l.footer ? { footer: provider(l.footer, mixed, "footer") } : {}),
          ...(l.empty ? { empty: provider(l.empty, mixed, "empty") } : {}),
        },
      }),
    });
    if (l === undefined) return;
    for (const item of l.items) {
      at(item.owner).item(p.name, {
        name: item.name,
        order: item.orderFn ? () => item.order : item.order,
        text: text(item.text, mixed, item.name),
      });
    }
    for (const items of l.providers) {
      at(items.owner).items(p.name, provider(items.items, mixed, "items"));
    }
  };
  for (const section of s.sections) part("section", section);
  for (const context of s.contexts) part("context", context);
  for (const variable of s.variables) {
    at(variable.owner).variable(
      variable.name,
      provider(variable.value, mixed, variable.name),
    );
  }
  for (const tools of s.tools) {
    const asTools: Call<unknown> = {
      ...tools.tools,
      value: tools.tools.value.map((name) => ({
        name,
        description: `${name} tool`,
        parameters: { type: "object" },
      })),
    };
    at(tools.owner).tools(provider(asTools, mixed, "tools"));
  }
  for (const handler of s.handlers) {
    const edit = (assembly: PromptAssembly) => {
      if (handler.edit === "drop-tool") assembly.tools.shift();
    };
    const how = mixed ? handler.mode : "sync";
    prompt.on(
      "system-prompt/assemble",
      how === "sync"
        ? edit
        : (assembly) => Promise.resolve().then(() => edit(assembly)),
    );
  }
  return prompt;
}

function fields(error: unknown) {
  if (!(error instanceof PromptError)) {
    return { notAPromptError: String(error) };
  }
  const { message: _message, cause: _cause, ...rest } = error.toJSON();
  return rest;
}

/** Everything a step shows, or the error's code and fields. */
async function observe(prompt: SystemPrompt) {
  let assembled;
  try {
    const assembly = await prompt.assemble();
    let rendered;
    try {
      rendered = {
        prompt: renderPrompt(assembly),
        context: renderContext(assembly),
      };
    } catch (error) {
      rendered = { renderError: fields(error) };
    }
    assembled = {
      ...rendered,
      tools: assembly.tools.map((tool) => [tool.name, toolOwner(tool)]),
      variables: { ...assembly.variables },
      sections: assembly.sections.map((section) => [
        section.name,
        section.owner,
        section.list?.footer,
        section.list?.empty,
        section.items?.map((item) => [item.name, item.owner, item.text]),
      ]),
    };
  } catch (error) {
    assembled = { error: fields(error) };
  }
  let step;
  try {
    const rendered = await prompt.render({}, { agent: "main" });
    step = {
      prompt: rendered.prompt,
      context: rendered.context,
      tools: rendered.tools.map((tool) => tool.name),
    };
  } catch (error) {
    step = { error: fields(error) };
  }
  return { assembled, step };
}

/** How many providers of a spec fail (throw, reject or answer a wrong type). */
function failures(s: Spec): number {
  const calls: (Call<unknown> | string | undefined)[] = [];
  for (const p of [...s.sections, ...s.contexts]) {
    calls.push(p.text, p.list?.footer, p.list?.empty);
    for (const item of p.list?.items ?? []) calls.push(item.text);
    for (const items of p.list?.providers ?? []) calls.push(items.items);
  }
  for (const v of s.variables) calls.push(v.value);
  for (const t of s.tools) calls.push(t.tools);
  return calls.filter((c) => typeof c === "object" && c.outcome !== "ok")
    .length;
}

/**
 * Whether the spec's only possible errors are its providers' own: no two
 * tools or items of one list share a name, whatever the providers answer.
 */
function onlyProviderErrors(s: Spec): boolean {
  const tools = s.tools.flatMap((t) => t.tools.value);
  if (new Set(tools).size !== tools.length) return false;
  return [...s.sections, ...s.contexts].every((p) => {
    const names = [
      ...(p.list?.items ?? []).map((item) => item.name),
      ...(p.list?.providers ?? []).flatMap((items) =>
        items.items.value.map((item) => item.name)
      ),
    ];
    return new Set(names).size === names.length;
  });
}

describe("a registry whose providers are randomly sync or async", () => {
  it("renders exactly what the all-sync registry renders (no provider fails)", async () => {
    await fc.assert(
      fc.asyncProperty(spec(fc.constant("ok")), async (s) => {
        assert.deepEqual(
          await observe(build(s, true)),
          await observe(build(s, false)),
        );
      }),
      RUNS,
    );
  });

  it("rejects as the all-sync registry does when one provider fails and nothing else does", async () => {
    const outcome = fc.constantFrom<Outcome>(
      "ok",
      "ok",
      "ok",
      "ok",
      "fail",
      "wrong",
    );
    await fc.assert(
      fc.asyncProperty(
        spec(outcome).filter((s) => failures(s) <= 1 && onlyProviderErrors(s)),
        async (s) => {
          assert.deepEqual(
            await observe(build(s, true)),
            await observe(build(s, false)),
          );
        },
      ),
      RUNS,
    );
  });

  // The all-sync registry reports the first provider, in snapshot order,
  // that threw (its start loop stops there), before any wrong value or
  // duplicate the walk over the results finds.
  it("rejects as the all-sync registry does when several providers fail, or a provider fails and two tools share a name", async () => {
    const outcome = fc.constantFrom<Outcome>("ok", "ok", "fail", "wrong");
    await fc.assert(
      fc.asyncProperty(spec(outcome), async (s) => {
        assert.deepEqual(
          await observe(build(s, true)),
          await observe(build(s, false)),
        );
      }),
      RUNS,
    );
  });
});
