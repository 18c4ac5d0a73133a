/** Configuration problems, each worded for one line on the console. */
export class ConfigError extends Error {
  override name = "ConfigError";
  readonly problems: readonly string[];

  constructor(problems: string | readonly string[]) {
    const list = typeof problems === "string" ? [problems] : problems;
    super(list.join("\n"));
    this.problems = list;
  }
}
