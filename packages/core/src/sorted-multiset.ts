/**
 * A multiset of numbers kept sorted in blocks of at most MAX_BLOCK values (the idea of Python's
 * sortedcontainers). Chosen for the rolling spread statistics over a Fenwick tree on quantised
 * values because it needs no value range or tick size up front (spreads drift, copper has 4
 * decimals, closes are unrounded doubles) and compares exactly; and over one sorted array
 * because inserting into 86,400 values moves ~43,000 on average, where here it moves at most
 * MAX_BLOCK. Costs, n values: insert/remove O(log n + MAX_BLOCK) plus an O(n / MAX_BLOCK) block
 * split now and then; countAtMost O(log n) once the block prefix counts are built, which the
 * first query after a change does in O(n / MAX_BLOCK) (~340 additions at 60 days of minutes).
 */
const MAX_BLOCK = 512;

export class SortedMultiset {
  private blocks: number[][] = [];
  /** prefix[i] = values in blocks before i; undefined after a change until the next count. */
  private prefix: number[] | undefined;
  private count = 0;

  get size(): number {
    return this.count;
  }

  min(): number | undefined {
    return this.blocks[0]?.[0];
  }

  max(): number | undefined {
    const last = this.blocks[this.blocks.length - 1];
    return last?.[last.length - 1];
  }

  insert(value: number): void {
    this.count++;
    this.prefix = undefined;
    if (this.blocks.length === 0) {
      this.blocks.push([value]);
      return;
    }
    // The first block whose largest value is > value, else the last block.
    const at = Math.min(this.firstBlockEndingAbove(value), this.blocks.length - 1);
    const block = this.blocks[at] as number[];
    block.splice(upperBound(block, value), 0, value);
    if (block.length > MAX_BLOCK) this.blocks.splice(at + 1, 0, block.splice(MAX_BLOCK >> 1));
  }

  /** Removes one occurrence of `value`; false when there is none. */
  remove(value: number): boolean {
    const at = this.firstBlockEndingAtLeast(value);
    const block = this.blocks[at];
    if (block === undefined) return false;
    const i = lowerBound(block, value);
    if (block[i] !== value) return false;
    block.splice(i, 1);
    if (block.length === 0) this.blocks.splice(at, 1);
    this.count--;
    this.prefix = undefined;
    return true;
  }

  /** How many values are ≤ `value`. */
  countAtMost(value: number): number {
    const prefix = this.prefixCounts();
    const at = this.firstBlockEndingAbove(value);
    const block = this.blocks[at];
    return (prefix[at] ?? this.count) + (block ? upperBound(block, value) : 0);
  }

  /** The value of rank `rank` (0 = the smallest), or undefined outside [0, size). O(log n). */
  at(rank: number): number | undefined {
    if (!Number.isInteger(rank) || rank < 0 || rank >= this.count) return undefined;
    const prefix = this.prefixCounts();
    // The last block whose prefix count is ≤ rank holds it.
    let lo = 0;
    let hi = this.blocks.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((prefix[mid] as number) <= rank) lo = mid;
      else hi = mid - 1;
    }
    return this.blocks[lo]?.[rank - (prefix[lo] as number)];
  }

  private prefixCounts(): number[] {
    if (this.prefix === undefined) {
      let sum = 0;
      this.prefix = this.blocks.map((block) => {
        const before = sum;
        sum += block.length;
        return before;
      });
    }
    return this.prefix;
  }

  private firstBlockEndingAbove(value: number): number {
    return searchBlocks(this.blocks, (last) => last > value);
  }

  private firstBlockEndingAtLeast(value: number): number {
    return searchBlocks(this.blocks, (last) => last >= value);
  }
}

/** The first block index whose last value satisfies `ok` (monotone), or blocks.length. */
function searchBlocks(blocks: number[][], ok: (last: number) => boolean): number {
  let lo = 0;
  let hi = blocks.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const block = blocks[mid] as number[];
    if (ok(block[block.length - 1] as number)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Index of the first element ≥ value. */
export function lowerBound(sorted: ArrayLike<number>, value: number, from = 0): number {
  let lo = from;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of the first element > value. */
export function upperBound(sorted: ArrayLike<number>, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((sorted[mid] as number) <= value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
