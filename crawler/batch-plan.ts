// How a channel's pending videos are cut into batches (spec, Limits): 50 with batch size 20 is
// 20, 20, 10; with batch size 5 it is ten batches of 5. Each batch becomes one store write.

export function planBatches<T>(items: readonly T[], batchSize: number): T[][] {
  if (!Number.isInteger(batchSize) || batchSize < 1) throw new RangeError(`batch size must be a positive integer, got ${batchSize}`);
  const batches: T[][] = [];
  for (let i = 0; i < items.length; i += batchSize) batches.push(items.slice(i, i + batchSize));
  return batches;
}
