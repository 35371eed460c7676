// A model test of the registry. Registrations and disposals are made at the
// top level and from inside section functions, variable providers, tool
// providers, assemble handlers and change listeners; every assembly must equal
// the registry as it stood when assemble() was called, and the registry must
// end equal to the model.
import { describe, it } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import {
  type Disposer,
  type PromptAssembly,
  PromptError,
  type PromptScope,
  SystemPrompt,
} from "../../mod.ts";

const RUNS = { numRuns: 10_000, seed: 20261130 };
const NAMES = ["a", "b", "c", "d"];
const OWNERS = ["p0", "p1", "p2"];
const PLACES = [
  "top",
  "section",
  "variable",
  "tools",
  "handler",
  "listener",
] as const;
type Place = (typeof PLACES)[number];
type Kind = "section" | "variable" | "tools" | "handler";

type Action =
  | { op: Kind; name: string; order: number; owner: number; async: boolean }
  | { op: "dispose"; pick: number }
  | { op: "disposeScope"; owner: number };
type Step = { op: "act"; action: Action; place: Place } | { op: "assemble" };

const owner = fc.integer({ min: -1, max: OWNERS.length - 1 });
const action: fc.Arbitrary<Action> = fc.oneof(
  fc.record({
    op: fc.constantFrom<Kind>("section", "variable", "tools", "handler"),
    name: fc.constantFrom(...NAMES),
    order: fc.integer({ min: -1, max: 2 }),
    owner,
    async: fc.boolean(),
  }),
  fc.record({ op: fc.constant("dispose" as const), pick: fc.nat() }),
  fc.record({
    op: fc.constant("disposeScope" as const),
    owner: fc.nat({ max: OWNERS.length - 1 }),
  }),
);
const step: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 4,
    arbitrary: fc.record({
      op: fc.constant("act" as const),
      action,
      place: fc.constantFrom(...PLACES),
    }),
  },
  { weight: 2, arbitrary: fc.constant({ op: "assemble" as const }) },
);

interface Live {
  kind: Kind;
  name: string;
  order: number;
  owner: string | undefined;
  scope: PromptScope | undefined; // the scope object it went through
  id: string;
}

type Expected =
  | {
    sections: string[];
    variables: string[];
    tools: string[];
    handlers: string[];
  }
  | "duplicate-tool";

function expected(live: readonly Live[]): Expected {
  const of = (kind: Kind) => live.filter((l) => l.kind === kind);
  const tools = of("tools").map((l) => l.name);
  if (new Set(tools).size !== tools.length) return "duplicate-tool";
  return {
    sections: of("section")
      .sort((x, y) => x.order - y.order || (x.name < y.name ? -1 : 1))
      .map((l) => `${l.name}@${l.owner ?? "root"}`),
    variables: of("variable").map((l) => l.name).sort(),
    // Canonical order: by name, whatever the registration order.
    tools: [...tools].sort(),
    handlers: of("handler").map((l) => l.id),
  };
}

function observed(assembly: PromptAssembly): Expected {
  const { ran, ...variables } = assembly.variables;
  return {
    sections: assembly.sections.map((s) => `${s.name}@${s.owner ?? "root"}`),
    variables: Object.keys(variables).sort(),
    tools: assembly.tools.map((t) => t.name),
    handlers: ran === undefined ? [] : ran.trim().split(" "),
  };
}

/** How many actions ran inside each kind of user code, over all runs. */
const performed = new Map<Place, number>();

/** One run: the registry, the model, and the actions waiting in user code. */
class Run {
  readonly prompt = new SystemPrompt({
    onListenerError: (error) => {
      throw new Error(`a listener failed: ${error.message}`);
    },
  });
  readonly scopes: PromptScope[] = OWNERS.map((o) => this.prompt.scope(o));
  live: Live[] = [];
  readonly made: { dispose: Disposer; entry: Live }[] = [];
  readonly waiting = new Map<Place, Action[]>(PLACES.map((p) => [p, []]));
  #ids = 0;

  constructor() {
    this.prompt.on("system-prompt/change", () => this.hook("listener"));
  }

  /** User code of kind `place` is running: it performs its next action. */
  hook(place: Place): void {
    const next = this.waiting.get(place)!.shift();
    if (next === undefined) return;
    performed.set(place, (performed.get(place) ?? 0) + 1);
    this.perform(next);
  }

  perform(action: Action): void {
    if (action.op === "dispose") {
      if (this.made.length === 0) return;
      const { dispose, entry } = this.made[action.pick % this.made.length]!;
      // The model first: the disposal's change event may run a listener
      // that registers again.
      this.live = this.live.filter((l) => l !== entry);
      dispose();
      return;
    }
    if (action.op === "disposeScope") {
      const scope = this.scopes[action.owner]!;
      this.live = this.live.filter((l) => l.scope !== scope);
      this.scopes[action.owner] = this.prompt.scope(OWNERS[action.owner]!);
      scope.dispose();
      return;
    }
    this.register(action);
  }

  register(
    action: Extract<Action, { op: Kind }>,
  ): void {
    const { op, name, order } = action;
    const scope = action.owner === -1 ? undefined : this.scopes[action.owner]!;
    const registrar = scope ?? this.prompt;
    const entry: Live = {
      kind: op,
      name,
      order: op === "section" ? order : 0,
      owner: scope?.owner,
      scope,
      id: `h${this.#ids++}`,
    };
    const clash = (op === "section" || op === "variable") &&
      this.live.find((l) => l.kind === op && l.name === name);
    if (clash) {
      assert.throws(() => this.add(registrar, action, entry), (error) => {
        assert.ok(error instanceof PromptError);
        assert.equal(error.code, `duplicate-${op}`);
        assert.equal(error.owner, clash.owner);
        return true;
      });
      return;
    }
    // In the model before the call: its change event may run a listener
    // whose action must see it.
    this.live.push(entry);
    const dispose = this.add(registrar, action, entry);
    this.made.push({ dispose, entry });
  }

  add(
    registrar: SystemPrompt | PromptScope,
    { op, name, order, async }: Extract<Action, { op: Kind }>,
    { id }: Live,
  ): Disposer {
    if (op === "section") {
      return registrar.section({
        name,
        order,
        text: () => {
          this.hook("section");
          return name;
        },
      });
    }
    if (op === "variable") {
      return registrar.variable(name, () => {
        this.hook("variable");
        return name;
      });
    }
    if (op === "tools") {
      return registrar.tools(() => {
        this.hook("tools");
        return [{ name, description: "", parameters: {} }];
      });
    }
    const record = (assembly: PromptAssembly) => {
      this.hook("handler");
      assembly.variables.ran = `${assembly.variables.ran ?? ""}${id} `;
    };
    return registrar.on(
      "system-prompt/assemble",
      async
        ? async (assembly) => {
          await Promise.resolve();
          record(assembly);
        }
        : record,
    );
  }
}

describe("registrations and disposals from inside user code", () => {
  it("leave every assembly equal to the registry when assemble() was called", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(step, { minLength: 4, maxLength: 30, size: "max" }),
        async (steps) => {
          const run = new Run();
          const pending: {
            promise: Promise<PromptAssembly>;
            expect: Expected;
          }[] = [];
          for (const s of steps) {
            if (s.op === "assemble") {
              const expect = expected(run.live);
              pending.push({ promise: run.prompt.assemble(), expect });
            } else if (s.place === "top") run.perform(s.action);
            else run.waiting.get(s.place)!.push(s.action);
          }
          for (const { promise, expect } of pending) {
            if (expect === "duplicate-tool") {
              await assert.rejects(promise, { code: "duplicate-tool" });
            } else {
              assert.deepEqual(observed(await promise), expect);
            }
          }
          // Whatever ran inside user code, the registry is the model.
          const now = expected(run.live);
          const registrations = run.prompt.registrations();
          if (now !== "duplicate-tool") {
            assert.deepEqual(
              registrations.sections.map((s) =>
                `${s.name}@${s.owner ?? "root"}`
              ),
              now.sections,
            );
            assert.deepEqual(
              registrations.variables.map((v) => v.name).sort(),
              now.variables,
            );
          }
          const count = (kind: Kind) =>
            run.live.filter((l) => l.kind === kind).length;
          assert.equal(registrations.toolProviders.length, count("tools"));
          assert.equal(registrations.handlers.length, count("handler"));
        },
      ),
      RUNS,
    );
    // Not vacuous: every kind of user code made changes, many times over.
    for (const place of PLACES.filter((p) => p !== "top")) {
      assert.ok(
        (performed.get(place) ?? 0) >= 1_000,
        `${place}: ${performed.get(place)}`,
      );
    }
  });
});
