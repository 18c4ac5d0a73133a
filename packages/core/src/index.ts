export * from "./calculations.ts";
export * from "./decimals.ts";
export * from "./instrument.ts";
export * from "./prices.ts";
export * from "./quote.ts";
export * from "./spread.ts";
export * from "./symbol.ts";
